/**
 * Is what happened in the last minutes a spike against the account's own baseline? The usual
 * rate is the same hour of the weeks before (up to four); an account younger than a week has
 * the same hour of the days before (up to six) instead, and a day-old one has nothing but a
 * floor, so a new merchant's first quiet hours do not make its first busy one a spike. The
 * count is then read as a Poisson draw around the usual rate: a spike when the chance of at
 * least that many is under `P_SPIKE` and there are at least `MIN_COUNT`. Pure.
 */

export const WEEK_MINUTES = 7 * 24 * 60;
export const DAY_MINUTES = 24 * 60;

/** A spike is what the usual rate makes rarer than one in a million windows. */
export const P_SPIKE = 1e-6;
/** Fewer than this many is never a spike, however quiet the baseline. */
export const MIN_COUNT = 10;
/** The usual rate is at least this many an hour (a new merchant, a key never seen before). */
export const FLOOR_PER_HOUR = 0.5;

/**
 * The hour buckets (minutes since the epoch) to read the usual rate of `hour` from, given the
 * first hour the account has any data: the same hour of earlier weeks, else of earlier days.
 */
export function baselineHours(hour: number, firstHour: number | null): number[] {
  if (firstHour === null) return [];
  const weeks = [1, 2, 3, 4].map((k) => hour - k * WEEK_MINUTES).filter((h) => h >= firstHour);
  if (weeks.length > 0) return weeks;
  return [1, 2, 3, 4, 5, 6].map((k) => hour - k * DAY_MINUTES).filter((h) => h >= firstHour);
}

/** The usual count an hour: the mean of the counts at `hours` (0 where none was stored). */
export function usualPerHour(
  hours: readonly number[],
  counts: ReadonlyMap<number, number>,
): number | null {
  if (hours.length === 0) return null;
  let sum = 0;
  for (const h of hours) sum += counts.get(h) ?? 0;
  return sum / hours.length;
}

/**
 * One key's usual count an hour (a network's signups, a promo code's redemptions): its count over
 * the time the account has data, up to four weeks back, before the window. `weekly` holds the
 * key's count per week bucket (the current week's including the window, which `inWindow` takes
 * out). Null when the account has less than an hour of data before the window.
 */
export function keyedUsualPerHour({
  weekly,
  week,
  windowStart,
  inWindow,
  firstMinute,
}: {
  weekly: ReadonlyMap<number, number>;
  /** The current week bucket's start (minutes). */
  week: number;
  windowStart: number;
  inWindow: number;
  /** The first minute the account has data (null: none). */
  firstMinute: number | null;
}): number | null {
  if (firstMinute === null) return null;
  let count = Math.max(0, (weekly.get(week) ?? 0) - inWindow);
  let minutes = Math.max(0, windowStart - Math.max(week, firstMinute));
  for (let k = 1; k <= 4; k++) {
    const start = week - k * WEEK_MINUTES;
    const end = start + WEEK_MINUTES;
    if (end <= firstMinute) break;
    count += weekly.get(start) ?? 0;
    minutes += end - Math.max(start, firstMinute);
  }
  return minutes < 60 ? null : count / (minutes / 60);
}

/** The week buckets `keyedUsualPerHour` reads: the current one and four before it. */
export const keyedWeeks = (week: number) => [0, 1, 2, 3, 4].map((k) => week - k * WEEK_MINUTES);

/** ln(n!), exact below 30, Stirling's series above (error under 1e-10). */
export function logFactorial(n: number): number {
  if (n < 30) {
    let s = 0;
    for (let i = 2; i <= n; i++) s += Math.log(i);
    return s;
  }
  const x = n + 1;
  return (
    (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * x) - 1 / (360 * x ** 3)
  );
}

/** P(X ≥ k) for X ~ Poisson(mu). */
export function poissonTail(k: number, mu: number): number {
  if (k <= 0) return 1;
  if (mu <= 0) return 0;
  // Below the mean the tail is near 1: 1 minus the head, which is short.
  if (k <= mu) {
    let head = 0;
    for (let i = 0; i < k; i++) head += Math.exp(-mu + i * Math.log(mu) - logFactorial(i));
    return Math.max(0, Math.min(1, 1 - head));
  }
  let term = Math.exp(-mu + k * Math.log(mu) - logFactorial(k));
  let sum = term;
  for (let i = k + 1; i < k + 10_000; i++) {
    term *= mu / i;
    sum += term;
    if (term < sum * 1e-12) break;
  }
  return Math.min(1, sum);
}

export type SpikeVerdict = {
  spike: boolean;
  /** The count expected in the window. */
  expected: number;
  /** The usual count an hour, before the floor (null: no history). */
  usual: number | null;
  p: number;
};

/** Whether `count` in `windowMinutes` is a spike against `usual` an hour. */
export function spikeOf(
  count: number,
  usual: number | null,
  windowMinutes: number,
  { minCount = MIN_COUNT, floor = FLOOR_PER_HOUR, pSpike = P_SPIKE } = {},
): SpikeVerdict {
  const expected = Math.max(usual ?? 0, floor) * (windowMinutes / 60);
  const p = poissonTail(count, expected);
  return { spike: count >= minCount && p < pSpike, expected, usual, p };
}
