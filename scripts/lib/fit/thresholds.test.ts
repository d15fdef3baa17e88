/**
 * Thresholds at the false-positive ceilings: the lowest whole score each ceiling allows, a
 * block held at review without two families, the worst world's, and the fixed point over caps.
 */
import { describe, expect, it } from "vitest";
import {
  CEILINGS,
  fixedPoint,
  guardedThresholdOf,
  lowestWithin,
  meetsCeilings,
  type Scored,
  worstWorld,
} from "./thresholds.ts";

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

describe("lowestWithin over a total", () => {
  it("counts the scores given against every event: blockable ones among all", () => {
    // 5 blockable scores at 90 among 1,000 events fit 0.5%; among the 5 alone they would not.
    expect(lowestWithin(many(5, 90), 0.005, 1000)).toBe(0);
    expect(lowestWithin(many(6, 90), 0.005, 1000)).toBe(91);
    expect(lowestWithin(many(5, 90), 0.005)).toBe(91);
  });
});

/** `n` ordinary events at `score`, blockable (two families) or not. */
const events = (n: number, score: number, blockable = false): Scored[] =>
  many(n, score).map((s) => ({ score: s, blockable }));

describe("guardedThresholdOf", () => {
  it.each([
    {
      name: "reviews at the 2% ceiling and blocks at the 0.5% one",
      // 1,000 events: 980 at 20, 15 at 60, 5 at 80, all with two families.
      items: [...events(980, 20, true), ...events(15, 60, true), ...events(5, 80, true)],
      threshold: { review: 21, block: 61 },
    },
    {
      name: "one family only is held at review: it does not hold the block threshold up",
      // 15 at 60 with one family: reviewed whatever the block threshold, so block may sit at review.
      items: [...events(985, 20, true), ...events(15, 60, false)],
      threshold: { review: 21, block: 21 },
    },
    {
      name: "block never below review",
      // 30 at 50 with one family (3%): review above them; nothing blockable.
      items: [...events(970, 20), ...events(30, 50)],
      threshold: { review: 51, block: 51 },
    },
    {
      name: "more than 2% at 100: no threshold at all",
      items: [...events(970, 20, true), ...events(30, 100, true)],
      threshold: { review: null, block: null },
    },
    {
      name: "more than 0.5% blockable at 100: review, never block",
      items: [...events(990, 20, true), ...events(10, 100, true)],
      threshold: { review: 21, block: null },
    },
  ])("$name", ({ items, threshold }) => {
    expect(guardedThresholdOf(items, CEILINGS)).toEqual(threshold);
    if (threshold.review !== null) expect(meetsCeilings(items, threshold, CEILINGS)).toBe(true);
  });
});

describe("meetsCeilings", () => {
  const items = [...events(980, 20, true), ...events(15, 60, false), ...events(5, 80, true)];
  it.each([
    {
      name: "the thresholds guardedThresholdOf picks",
      threshold: { review: 21, block: 61 },
      ok: true,
    },
    { name: "review one lower flags 98% of them", threshold: { review: 20, block: 61 }, ok: false },
    {
      name: "a held score counts as reviewed, not blocked",
      threshold: { review: 21, block: 21 },
      ok: true,
    },
    // Review at none and block at 21: every score at 21 or more is flagged (20 events, 2%).
    { name: "with no review, block flags", threshold: { review: null, block: 21 }, ok: true },
    {
      name: "with no review, a low block flags too many",
      threshold: { review: null, block: 20 },
      ok: false,
    },
    { name: "none acts: within", threshold: { review: null, block: null }, ok: true },
  ])("$name", ({ threshold, ok }) => {
    expect(meetsCeilings(items, threshold, CEILINGS)).toBe(ok);
  });

  it("six blockable events of 1,000 at block are over the 0.5% ceiling; one point higher, none are", () => {
    const six = [...events(994, 20, true), ...events(6, 80, true)];
    expect(meetsCeilings(six, { review: 21, block: 80 }, CEILINGS)).toBe(false);
    expect(meetsCeilings(six, { review: 21, block: 81 }, CEILINGS)).toBe(true);
  });
});

describe("worstWorld", () => {
  it.each([
    { name: "no world: none", worlds: [], threshold: { review: null, block: null } },
    {
      name: "the highest of each, not the mean",
      worlds: [
        { review: 30, block: 60 },
        { review: 50, block: 55 },
        { review: 20, block: 90 },
      ],
      threshold: { review: 50, block: 90 },
    },
    {
      name: "a world that never blocks within its ceilings: never block",
      worlds: [
        { review: 30, block: 60 },
        { review: 40, block: null },
      ],
      threshold: { review: 40, block: null },
    },
    {
      name: "a world with no threshold at all: none",
      worlds: [
        { review: 30, block: 60 },
        { review: null, block: null },
      ],
      threshold: { review: null, block: null },
    },
  ])("$name", ({ worlds, threshold }) => {
    expect(worstWorld(worlds)).toEqual(threshold);
  });

  it("every world stays within its ceilings under the worst world's thresholds", () => {
    const worlds = [
      [...events(990, 20, true), ...events(10, 70, true)],
      [...events(180, 30, true), ...events(20, 45, false)],
      [...events(500, 10, true), ...events(3, 95, true)],
    ];
    const t = worstWorld(worlds.map((w) => guardedThresholdOf(w, CEILINGS)));
    for (const w of worlds) expect(meetsCeilings(w, t, CEILINGS)).toBe(true);
    // Pooled, the same events would get a lower review threshold, which the second world fails.
    const pooled = guardedThresholdOf(worlds.flat(), CEILINGS);
    expect(pooled.review as number).toBeLessThan(t.review as number);
    expect(meetsCeilings(worlds[1] as Scored[], pooled, CEILINGS)).toBe(false);
  });
});

describe("fixedPoint", () => {
  const same = (a: number, b: number) => a === b;

  it("stops when a choice repeats", () => {
    const seen: (number | null)[] = [];
    const found = fixedPoint<number>(
      (previous) => {
        seen.push(previous);
        return previous === null ? 90 : Math.max(60, previous - 10);
      },
      () => true,
      same,
    );
    expect(found).toEqual({ value: 60, rounds: 5, converged: true });
    expect(seen).toEqual([null, 90, 80, 70, 60]);
  });

  it("keeps the last choice that met the ceilings when they never repeat", () => {
    const found = fixedPoint<number>(
      (previous) => (previous === 50 ? 70 : 50),
      (t) => t === 50,
      same,
      6,
    );
    expect(found).toEqual({ value: 50, rounds: 6, converged: false });
  });

  it("a repeated choice that fails the ceilings is not kept: the last one that met them is", () => {
    const found = fixedPoint<number>(
      (previous) => (previous === null ? 80 : 70),
      (t) => t === 80,
      same,
    );
    expect(found).toEqual({ value: 80, rounds: 3, converged: true });
  });

  it("no choice meets them: none", () => {
    expect(
      fixedPoint<number>(
        () => 40,
        () => false,
        same,
      ).value,
    ).toBeNull();
  });
});
