import { describe, expect, it } from "vitest";
import { barWidth, changeText, metricsOf, typeName } from "./preview-format.ts";

const outcome = (n: number) => ({
  blocked: n,
  reviewed: 2 * n,
  fraud_blocked: 1,
  fraud_reviewed: n,
  legitimate_blocked: 0,
  legitimate_reviewed: n - 1,
});

describe("preview format", () => {
  it("adds blocked and reviewed up for the labelled ones, out of how many were labelled", () => {
    const metrics = metricsOf({
      screenings: 100,
      fraud: 9,
      legitimate: 20,
      now: outcome(2),
      proposed: outcome(5),
    });
    expect(metrics.map((m) => [m.key, m.now, m.proposed, m.of])).toEqual([
      ["blocked", 2, 5, null],
      ["reviewed", 4, 10, null],
      ["fraud_caught", 3, 6, 9],
      ["legitimate_stopped", 1, 4, 20],
    ]);
  });

  it.each([
    ["trial_start", "Trial start"],
    ["signup", "Signup"],
  ] as const)("names %s %s", (type, name) => {
    expect(typeName(type)).toBe(name);
  });

  it.each([
    [3, 3, "3"],
    [3, 12, "3 → 12"],
    [1200, 0, "1,200 → 0"],
  ])("%i then %i reads %s", (now, proposed, text) => {
    expect(changeText(now, proposed)).toBe(text);
  });

  it.each([
    [0, [0, 0], 0],
    [5, [5, 10], 50],
    [10, [5, 10], 100],
    [1, [1, 3], 33],
  ] as const)("%i of %j is %i%% wide", (value, pair, width) => {
    expect(barWidth(value, pair)).toBe(width);
  });
});
