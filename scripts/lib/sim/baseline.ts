/**
 * The recorded detection figures (docs/detection-baseline.json) and the regression check CI
 * runs against them: recall may not fall, nor false-positive rates rise, beyond a tolerance.
 */
import type { ConfigurationFigures } from "./report.ts";
import { configurationsOf } from "./run.ts";

/** Every template alone, then every rule: what CI simulates. */
export const CI_CONFIGURATIONS = configurationsOf("each");

export type Recorded = {
  recall: number;
  targetedRecall: number | null;
  ordinaryBlocked: number;
  ordinaryReviewed: number;
};

export type CiBaseline = {
  seed: number;
  events: number;
  hours: number;
  tolerance: { recall: number; blocked: number; reviewed: number };
  figures: Record<string, Recorded>;
};

export type Baseline = { ci: CiBaseline } & Record<string, unknown>;

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
