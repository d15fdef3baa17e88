/**
 * The recorded detection figures (docs/detection-baseline.json) and the regression check CI
 * runs against them: recall may not fall, nor false-positive rates rise, beyond a tolerance.
 */
import type { MixOptions } from "./mix.ts";
import type { ConfigurationFigures } from "./report.ts";
import { configurationsOf } from "./run.ts";
import type { Configuration } from "./warden.ts";

export type Recorded = {
  recall: number;
  targetedRecall: number | null;
  ordinaryBlocked: number;
  ordinaryReviewed: number;
};

/** One run CI simulates: a seeded mix, the configurations it is judged in, its figures. */
export type CiBaseline = {
  /**
   * The world its mix is drawn from (worlds.ts). Absent: `classic`, the default mix before the
   * careful attacks, on which the runs without one were recorded.
   */
  world?: string;
  seed: number;
  events: number;
  hours: number;
  /** --template for this run (default: each, every template alone, then every rule). */
  template?: string;
  /** Only these populations, separated by commas, as --only takes them (default: the whole mix). */
  only?: string;
  tolerance: { recall: number; blocked: number; reviewed: number };
  figures: Record<string, Recorded>;
  commit?: string;
};

/**
 * CI's runs: the default mix in every configuration, and the refund traffic alone (a few
 * hundred events of the whole mix hold too few refund abusers to judge the Refund Abuser Flag).
 */
export const CI_RUNS = ["ci", "ci_refunds"] as const;

/** The world of a recorded run that names none. */
export const CI_WORLD = "classic";

export type Baseline = Record<(typeof CI_RUNS)[number], CiBaseline> & Record<string, unknown>;

/** What a CI run simulates: its mix and its configurations. */
export function ciRunOf(ci: CiBaseline): { mix: MixOptions; configs: Configuration[] } {
  const { seed, events, hours } = ci;
  const only = ci.only?.split(",");
  return {
    mix: { world: ci.world ?? CI_WORLD, seed, events, hours, ...(only ? { only } : {}) },
    configs: configurationsOf(ci.template ?? "each"),
  };
}

export function recordedOf(f: ConfigurationFigures): Recorded {
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  return {
    recall: round(f.attacks.recall),
    targetedRecall: f.targeted ? round(f.targeted.recall) : null,
    ordinaryBlocked: round(f.ordinary.blockedRate),
    ordinaryReviewed: round(f.ordinary.reviewedRate),
  };
}

/** Each figure worse than recorded by more than the tolerance, in words (empty: none). */
export function compareWithBaseline(
  figures: readonly ConfigurationFigures[],
  ci: CiBaseline,
): string[] {
  const worse: string[] = [];
  const t = ci.tolerance;
  for (const f of figures) {
    const was = ci.figures[f.name];
    if (!was) {
      worse.push(`${f.name}: no recorded figures`);
      continue;
    }
    const now = recordedOf(f);
    if (now.recall < was.recall - t.recall)
      worse.push(`${f.name}: recall ${now.recall} < ${was.recall}`);
    if (was.targetedRecall !== null && (now.targetedRecall ?? 0) < was.targetedRecall - t.recall) {
      worse.push(`${f.name}: targeted recall ${now.targetedRecall} < ${was.targetedRecall}`);
    }
    if (now.ordinaryBlocked > was.ordinaryBlocked + t.blocked) {
      worse.push(`${f.name}: ordinary blocked ${now.ordinaryBlocked} > ${was.ordinaryBlocked}`);
    }
    if (now.ordinaryReviewed > was.ordinaryReviewed + t.reviewed) {
      worse.push(`${f.name}: ordinary reviewed ${now.ordinaryReviewed} > ${was.ordinaryReviewed}`);
    }
  }
  return worse;
}
