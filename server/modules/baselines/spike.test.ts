import { describe, expect, it } from "vitest";
import {
  baselineHours,
  DAY_MINUTES,
  keyedUsualPerHour,
  logFactorial,
  poissonTail,
  spikeOf,
  usualPerHour,
  WEEK_MINUTES,
} from "./spike.ts";

describe("the Poisson tail", () => {
  it("matches sums of the probability mass computed directly", () => {
    for (const mu of [0.05, 0.3, 1, 4.5, 20, 80]) {
      for (const k of [0, 1, 2, 5, 10, 30, 100]) {
        let head = 0;
        let term = Math.exp(-mu);
        for (let i = 0; i < k; i++) {
          head += term;
          term *= mu / (i + 1);
        }
        expect(poissonTail(k, mu)).toBeCloseTo(Math.max(0, 1 - head), 9);
      }
    }
  });

  it("stays finite and tiny far into the tail, where 1 - head would round to 0", () => {
    const p = poissonTail(200, 2);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-200);
  });

  it("has ln n! right on both sides of the switch to Stirling", () => {
    let exact = 0;
    for (let n = 1; n <= 60; n++) {
      exact += Math.log(n);
      expect(logFactorial(n)).toBeCloseTo(exact, 8);
    }
  });
});

describe("the baseline's hours", () => {
  const hour = 1_000 * WEEK_MINUTES;
  it("takes the same hour of up to four weeks before, as far back as the account's data goes", () => {
    expect(baselineHours(hour, hour - 10 * WEEK_MINUTES)).toEqual([
      hour - WEEK_MINUTES,
      hour - 2 * WEEK_MINUTES,
      hour - 3 * WEEK_MINUTES,
      hour - 4 * WEEK_MINUTES,
    ]);
    expect(baselineHours(hour, hour - 2 * WEEK_MINUTES)).toEqual([
      hour - WEEK_MINUTES,
      hour - 2 * WEEK_MINUTES,
    ]);
  });
  it("falls back to the same hour of the days before for an account younger than a week", () => {
    expect(baselineHours(hour, hour - 3 * DAY_MINUTES)).toEqual([
      hour - DAY_MINUTES,
      hour - 2 * DAY_MINUTES,
      hour - 3 * DAY_MINUTES,
    ]);
  });
  it("has nothing for an account younger than a day, or with no data", () => {
    expect(baselineHours(hour, hour - 60)).toEqual([]);
    expect(baselineHours(hour, null)).toEqual([]);
  });
  it("counts an hour with nothing stored as 0", () => {
    expect(
      usualPerHour(
        [1, 2, 3, 4],
        new Map([
          [1, 8],
          [3, 4],
        ]),
      ),
    ).toBe(3);
    expect(usualPerHour([], new Map())).toBeNull();
  });
});

describe("a spike", () => {
  it("needs both the minimum count and a tail under one in a million", () => {
    // 31 signups in 15 minutes from a network that usually has 0.3 an hour.
    expect(spikeOf(31, 0.3, 15).spike).toBe(true);
    // Nine is never a spike, however quiet the baseline.
    expect(spikeOf(9, 0, 15).spike).toBe(false);
    // Busy hours: 120 an hour usually, 40 in 15 minutes is ordinary.
    expect(spikeOf(40, 120, 15).spike).toBe(false);
    // ... and 90 in 15 minutes is not.
    expect(spikeOf(90, 120, 15).spike).toBe(true);
  });
  it("puts a floor under a new merchant's baseline", () => {
    const verdict = spikeOf(3, null, 60);
    expect(verdict.expected).toBe(0.5);
    expect(verdict.usual).toBeNull();
  });
});

describe("one key's usual rate", () => {
  const week = 3_000 * WEEK_MINUTES;
  it("is its count over the four weeks before and this week before the window, an hour", () => {
    const weekly = new Map([
      [week, 30],
      [week - WEEK_MINUTES, 168],
      [week - 4 * WEEK_MINUTES, 168],
    ]);
    // Two days into this week, 10 of its 30 in the window: (20 + 336) over 4 weeks and 2 days.
    const usual = keyedUsualPerHour({
      weekly,
      week,
      windowStart: week + 2 * DAY_MINUTES,
      inWindow: 10,
      firstMinute: week - 10 * WEEK_MINUTES,
    });
    expect(usual).toBeCloseTo((20 + 336) / (4 * 168 + 48), 9);
  });
  it("counts only the time the account has had data", () => {
    // The account began 30 hours before the window, in this week.
    const usual = keyedUsualPerHour({
      weekly: new Map([[week, 15 + 5]]),
      week,
      windowStart: week + 40 * 60,
      inWindow: 5,
      firstMinute: week + 10 * 60,
    });
    expect(usual).toBeCloseTo(15 / 30, 9);
    // Less than an hour of data: not known.
    expect(
      keyedUsualPerHour({
        weekly: new Map(),
        week,
        windowStart: week + 30,
        inWindow: 0,
        firstMinute: week,
      }),
    ).toBeNull();
  });
});
