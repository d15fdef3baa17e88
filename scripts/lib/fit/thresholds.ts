/**
 * The review and block thresholds of a weights file (pure): per event type, the lowest whole
 * score at which the ordinary events of that type it would act on stay within the
 * false-positive ceilings (issue 33: ≤ 0.5% of ordinary events blocked, ≤ 2% reviewed or
 * blocked). A type with too few ordinary events to tell a share that small gets no threshold:
 * its score is shown and never acted on.
 */
import type { Threshold } from "../../../shared/score/weights.ts";

/** The most the score alone may cost ordinary events of one type. */
export type Ceilings = { blocked: number; flagged: number };

export const CEILINGS: Ceilings = { blocked: 0.005, flagged: 0.02 };

/**
 * Under 200 ordinary events, 0.5% is less than one event: the block threshold would be "above
 * every ordinary score seen", a guess at the tail, not a measure of it.
 */
export const MIN_ORDINARY = 200;

/** The threshold a type gets when it has too few ordinary events: the score never acts. */
export const SAFE_DEFAULT: Threshold = { review: null, block: null };

/**
 * The lowest t in 0–100 such that the share of `scores` at or above t is at most `ceiling`;
 * null when no t is (more than `ceiling` of them are at 100).
 */
export function lowestWithin(scores: readonly number[], ceiling: number): number | null {
  const counts = new Array<number>(101).fill(0);
  for (const s of scores) {
    const t = Math.max(0, Math.min(100, Math.round(s)));
    counts[t] = (counts[t] ?? 0) + 1;
  }
  // atOrAbove[t]: how many scores are ≥ t, walked down from 100.
  let atOrAbove = 0;
  let lowest: number | null = null;
  for (let t = 100; t >= 0; t--) {
    atOrAbove += counts[t] ?? 0;
    if (atOrAbove > ceiling * scores.length) break;
    lowest = t;
  }
  return lowest;
}

/** One type's thresholds from its ordinary events' scores, and whether the safe default applies. */
export function thresholdOf(
  ordinaryScores: readonly number[],
  ceilings: Ceilings = CEILINGS,
  min = MIN_ORDINARY,
): Threshold & { safeDefault: boolean } {
  if (ordinaryScores.length < min) return { ...SAFE_DEFAULT, safeDefault: true };
  return {
    review: lowestWithin(ordinaryScores, ceilings.flagged),
    block: lowestWithin(ordinaryScores, ceilings.blocked),
    safeDefault: false,
  };
}
