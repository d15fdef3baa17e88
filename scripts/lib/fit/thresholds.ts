/**
 * The review and block thresholds of a weights file (pure): per event type, the lowest whole
 * scores at which the ordinary events of that type it would act on stay within the
 * false-positive ceilings (issue 33: ≤ 0.5% of ordinary events blocked, ≤ 2% reviewed or
 * blocked) in every training world, not on their pooled mean (issue 42): each world's own
 * lowest thresholds, then the highest of them. A score at or above block blocks only with
 * evidence from two families (server/engine/score.ts scoreAction); the others are held at
 * review, so they count against the review ceiling, not the block one. A type with too few
 * ordinary events to tell a share that small gets no threshold: its score is shown and never
 * acted on.
 */
import type { Threshold } from "../../../shared/score/weights.ts";

/** The most the score alone may cost ordinary events of one type. */
export type Ceilings = { blocked: number; flagged: number };

export const CEILINGS: Ceilings = { blocked: 0.005, flagged: 0.02 };

/**
 * Under 200 ordinary events, 0.5% is less than one event: the block threshold would be "above
 * every ordinary score seen", a guess at the tail, not a measure of it. Counted over every
 * training world together (a randomized world of 2,500 events holds a few dozen referrals);
 * each world then sets its thresholds on however many it has, which in a small world means
 * above its every ordinary score.
 */
export const MIN_ORDINARY = 200;

/** The threshold a type gets when it has too few ordinary events: the score never acts. */
export const SAFE_DEFAULT: Threshold = { review: null, block: null };

/**
 * The lowest t in 0–100 such that the scores at or above t are at most `ceiling` of `total`
 * (by default, of the scores themselves); null when no t is (too many of them are at 100).
 */
export function lowestWithin(
  scores: readonly number[],
  ceiling: number,
  total = scores.length,
): number | null {
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
    if (atOrAbove > ceiling * total) break;
    lowest = t;
  }
  return lowest;
}

/**
 * An ordinary event as the thresholds read it: its score, and whether a score at or above the
 * block threshold would block it (evidence from enough families) or be held at review.
 */
export type Scored = { score: number; blockable: boolean };

/**
 * One world's lowest thresholds for one type under the guarded action: review where scores at
 * or above it (reviewed, held or blocked) stay within the flagged ceiling; block, never below
 * review, where the blockable events at or above it stay within the blocked ceiling. No review
 * threshold (more than the ceiling at 100): no block either, as a score at block is flagged too.
 */
export function guardedThresholdOf(items: readonly Scored[], ceilings: Ceilings): Threshold {
  const review = lowestWithin(
    items.map((i) => i.score),
    ceilings.flagged,
  );
  if (review === null) return { ...SAFE_DEFAULT };
  const blockable = items.filter((i) => i.blockable).map((i) => i.score);
  const block = lowestWithin(blockable, ceilings.blocked, items.length);
  return { review, block: block === null ? null : Math.max(review, block) };
}

/** Whether `threshold` keeps these events within the ceilings (blocked; blocked, held or reviewed). */
export function meetsCeilings(
  items: readonly Scored[],
  threshold: Threshold,
  ceilings: Ceilings,
): boolean {
  const { review, block } = threshold;
  const flagAt = Math.min(review ?? 101, block ?? 101);
  const flagged = items.filter((i) => i.score >= flagAt).length;
  const blocked = items.filter((i) => i.blockable && block !== null && i.score >= block).length;
  return flagged <= ceilings.flagged * items.length && blocked <= ceilings.blocked * items.length;
}

/**
 * The thresholds that hold in every world: the highest of each world's (none where any world
 * has none). A share at or above a threshold only falls as it rises, so each world stays
 * within its ceilings under the highest.
 */
export function worstWorld(perWorld: readonly Threshold[]): Threshold {
  const highest = (values: (number | null)[]) =>
    values.some((v) => v === null) ? null : Math.max(...(values as number[]));
  if (perWorld.length === 0) return { ...SAFE_DEFAULT };
  const review = highest(perWorld.map((t) => t.review));
  const block = highest(perWorld.map((t) => t.block));
  return review === null ? { ...SAFE_DEFAULT } : { review, block };
}

export type FixedPoint<T> = {
  /** The last choice that met the ceilings under its own caps (null: none did). */
  value: T | null;
  rounds: number;
  converged: boolean;
};

/**
 * Thresholds chosen where the scores depend on them (a family's points are capped at the
 * review threshold): choose on the scores under the previous choice (the first: uncapped), score
 * again under the new one, until a choice repeats or `rounds` are spent, keeping the last
 * choice that met the ceilings under its own caps.
 */
export function fixedPoint<T>(
  choose: (previous: T | null) => T,
  meets: (choice: T) => boolean,
  same: (a: T, b: T) => boolean,
  rounds = 6,
): FixedPoint<T> {
  let previous: T | null = null;
  let kept: T | null = null;
  for (let round = 1; round <= rounds; round++) {
    const next = choose(previous);
    if (meets(next)) kept = next;
    if (previous !== null && same(next, previous))
      return { value: kept, rounds: round, converged: true };
    previous = next;
  }
  return { value: kept, rounds, converged: false };
}
