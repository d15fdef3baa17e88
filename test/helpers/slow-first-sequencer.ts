/**
 * Vitest's order with the slowest files first in their group. On two workers a long file that
 * starts last runs alone at the end: by size, fit.int (a short file, 109 s) started after 240
 * others and was the run's last two minutes. Slowest first, the short files fill in beside the
 * long ones and the two workers finish together.
 *
 * How long a file takes: what test-results/durations.json says from the last run on this
 * machine, else the seconds below (measured on a 2-core machine, decision 034; a clean clone,
 * as in CI, has only these). Files neither knows keep Vitest's own order (new files first, then
 * larger files), after the known ones.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { DURATIONS_FILE, type FileDuration } from "./summary-reporter.ts";

/** Files of 20 s and more in a full run, with their seconds. */
export const KNOWN_SLOW: Record<string, number> = {
  "test/fuzz.int.test.ts": 171,
  "test/simulation/fit.int.test.ts": 109,
  "test/simulation/detection.int.test.ts": 100,
  "test/e2e/review-queue.e2e.test.ts": 53,
  "test/e2e/merchant-app.e2e.test.ts": 51,
  "test/privacy/erasure-proof.int.test.ts": 51,
  "test/team/team.int.test.ts": 50,
  "test/scoring/models.int.test.ts": 45,
  "scripts/backtest.int.test.ts": 29,
  "test/scoring/models-100k.int.test.ts": 29,
  "test/screening/never-fails-open.int.test.ts": 28,
  "test/access-sweep.int.test.ts": 28,
  "test/review/webhook-fairness.int.test.ts": 28,
  "test/e2e/narrow-screens.e2e.test.ts": 28,
  "test/live/live.int.test.ts": 27,
  "test/privacy/account-data.int.test.ts": 27,
  "test/screening/screen-fuzz.int.test.ts": 26,
  "test/e2e/landing.e2e.test.ts": 25,
  "test/scoring/thresholds-scale.int.test.ts": 24,
  "test/screening/rules-over-http.int.test.ts": 22,
  "test/isolation.int.test.ts": 21,
  "test/two-factor/two-factor.int.test.ts": 21,
  "test/review/linked-accounts.int.test.ts": 21,
};

/** Seconds by file, from the last run's report if it can be read. */
function lastRun(): Record<string, number> | null {
  try {
    const rows = JSON.parse(readFileSync(DURATIONS_FILE, "utf8")) as FileDuration[];
    return Object.fromEntries(rows.map((row) => [row.file, row.seconds]));
  } catch {
    return null;
  }
}

/**
 * `files` in `base` order, but within each group the ones `seconds` knows, slowest first,
 * ahead of the rest. Pure, for its table test.
 */
export function slowestFirstInGroups<T>(
  base: readonly T[],
  group: (file: T) => number,
  seconds: (file: T) => number | undefined,
): T[] {
  const at = new Map(base.map((file, i) => [file, i]));
  return [...base].sort((a, b) => {
    const byGroup = group(a) - group(b);
    if (byGroup !== 0) return byGroup;
    const [sa, sb] = [seconds(a) ?? -1, seconds(b) ?? -1];
    if (sa !== sb) return sb - sa;
    return (at.get(a) ?? 0) - (at.get(b) ?? 0);
  });
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = { ...KNOWN_SLOW, ...lastRun() };
    const root = this.ctx.config.root;
    return slowestFirstInGroups(
      await super.sort(files),
      (file) => file.project.config.sequence.groupOrder,
      (file) => known[relative(root, file.moduleId)],
    );
  }
}
