/** Thresholds at the false-positive ceilings: the lowest whole score each ceiling allows. */
import { describe, expect, it } from "vitest";
import { CEILINGS, lowestWithin, MIN_ORDINARY, thresholdOf } from "./thresholds.ts";

/** `n` scores of `value`. */
const many = (n: number, value: number) => new Array<number>(n).fill(value);

describe("lowestWithin", () => {
  it.each([
    // 1,000 scores: 0.5% is 5 events, 2% is 20.
    { name: "all at 10: just above them", scores: many(1000, 10), ceiling: 0.005, t: 11 },
    {
      name: "5 high of 1,000 fit 0.5%",
      scores: [...many(995, 10), ...many(5, 90)],
      ceiling: 0.005,
      t: 11,
    },
    {
      name: "6 high of 1,000 do not",
      scores: [...many(994, 10), ...many(6, 90)],
      ceiling: 0.005,
      t: 91,
    },
    {
      name: "ten of each score 0–99: 2% is 98 and 99",
      scores: Array.from({ length: 1000 }, (_, i) => i % 100),
      ceiling: 0.02,
      t: 98,
    },
    {
      name: "more than the ceiling at 100: none",
      scores: [...many(990, 10), ...many(10, 100)],
      ceiling: 0.005,
      t: null,
    },
    {
      name: "exactly the ceiling at 100 is within it",
      scores: [...many(995, 10), ...many(5, 100)],
      ceiling: 0.005,
      t: 11,
    },
    { name: "a ceiling of 1 allows every score", scores: many(10, 40), ceiling: 1, t: 0 },
  ])("$name", ({ scores, ceiling, t }) => {
    expect(lowestWithin(scores, ceiling)).toBe(t);
  });

  it("at the threshold found, the share at or above it is within the ceiling, one lower it is not", () => {
    // Most scores low, a thin tail up to 99.
    const scores = Array.from({ length: 2000 }, (_, i) => Math.floor(100 * (i / 2000) ** 4));
    for (const ceiling of [0.005, 0.02, 0.1]) {
      const t = lowestWithin(scores, ceiling) as number;
      const share = (x: number) => scores.filter((s) => s >= x).length / scores.length;
      expect(share(t)).toBeLessThanOrEqual(ceiling);
      expect(share(t - 1)).toBeGreaterThan(ceiling);
    }
  });
});

describe("thresholdOf", () => {
  it("reviews at the 2% ceiling and blocks at the 0.5% one", () => {
    // 1,000 ordinary scores: 980 at 20, 15 at 60, 5 at 80.
    const scores = [...many(980, 20), ...many(15, 60), ...many(5, 80)];
    expect(thresholdOf(scores)).toEqual({ review: 21, block: 61, safeDefault: false });
  });

  it("review is never above block", () => {
    const scores = Array.from({ length: 500 }, (_, i) => Math.floor(100 * (i / 500) ** 3));
    const t = thresholdOf(scores, CEILINGS);
    expect(t.review).not.toBeNull();
    expect(t.review as number).toBeLessThanOrEqual(t.block as number);
  });

  it.each([
    { name: "no ordinary event", n: 0 },
    { name: "one short of the minimum", n: MIN_ORDINARY - 1 },
  ])("$name: the safe default, no threshold", ({ n }) => {
    expect(thresholdOf(many(n, 10))).toEqual({ review: null, block: null, safeDefault: true });
  });

  it("at the minimum, thresholds are read from the scores", () => {
    expect(thresholdOf(many(MIN_ORDINARY, 10))).toEqual({
      review: 11,
      block: 11,
      safeDefault: false,
    });
  });
});
