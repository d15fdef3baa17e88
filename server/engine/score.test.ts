import { describe, expect, it } from "vitest";
import type { Weights } from "../../shared/score/weights.ts";
import { POINTS_PER_LOG_ODDS, probabilityOf, scoreAction, scoreOf } from "./score.ts";
import type { Signal } from "./signals.ts";

const weights: Weights = {
  version: "test-1",
  fitted: {},
  intercepts: { signup: -3, checkout: -2 },
  weights: { account_new: 1.2, linked_last_hour: 0.9, returning_account: -0.7, hosting_network: 0 },
  thresholds: {},
};

const signal = (key: Signal["signal"], value: number, detail: string = key): Signal => ({
  signal: key,
  value,
  detail,
});

describe("scoreOf", () => {
  it.each([
    { name: "no signal: the type's baseline", type: "signup" as const, signals: [], score: 7 },
    { name: "another type starts elsewhere", type: "checkout" as const, signals: [], score: 21 },
    {
      name: "each signal adds weight × value, 10 points per doubling of the odds",
      type: "signup" as const,
      signals: [signal("account_new", 1), signal("linked_last_hour", 2)],
      score: 7 + 17 + 26,
    },
    {
      name: "a negative weight takes points away",
      type: "checkout" as const,
      signals: [signal("returning_account", 1)],
      score: 21 - 10,
    },
    {
      name: "held to 100",
      type: "signup" as const,
      signals: [
        signal("linked_last_hour", 4),
        signal("account_new", 1),
        signal("linked_last_hour", 4),
      ],
      score: 100,
    },
    {
      name: "held to 0",
      type: "signup" as const,
      signals: [signal("returning_account", 1)],
      score: 0,
    },
  ])("$name", ({ type, signals, score }) => {
    expect(scoreOf(type, signals, weights).score).toBe(score);
  });

  it("lists the baseline first, then every signal by size, and they add up to the score", () => {
    const { score, contributions } = scoreOf(
      "signup",
      [
        signal("returning_account", 1, "returning account"),
        signal("account_new", 1, "account 3 min old"),
        signal("linked_last_hour", 2, "linked to 3 accounts"),
        signal("hosting_network", 1, "from a host"),
      ],
      weights,
    );
    expect(contributions.map((c) => [c.signal, c.points])).toEqual([
      ["baseline", 7],
      ["linked_last_hour", 26],
      ["account_new", 17],
      ["returning_account", -10],
      ["hosting_network", 0],
    ]);
    expect(contributions.reduce((sum, c) => sum + c.points, 0)).toBe(score);
    expect(contributions[1]).toEqual({
      signal: "linked_last_hour",
      points: 26,
      detail: "linked to 3 accounts",
      value: 2,
    });
  });

  it("an unknown signal in the weights file counts nothing; an unweighted signal scores 0 points", () => {
    const { contributions } = scoreOf("signup", [signal("webdriver", 1)], weights);
    expect(contributions[1]?.points).toBe(0);
  });

  it("maps the scale to probabilities: 50 is even odds, 10 points double them", () => {
    expect(probabilityOf(50)).toBeCloseTo(0.5);
    expect(probabilityOf(60) / (1 - probabilityOf(60))).toBeCloseTo(2);
    expect(POINTS_PER_LOG_ODDS * Math.LN2).toBeCloseTo(10);
  });
});

describe("scoreAction", () => {
  it.each([
    { score: 64, threshold: { review: 65, block: 75 }, action: null },
    { score: 65, threshold: { review: 65, block: 75 }, action: "review" },
    { score: 75, threshold: { review: 65, block: 75 }, action: "block" },
    { score: 99, threshold: { review: 65, block: null }, action: "review" },
    { score: 99, threshold: { review: null, block: null }, action: null },
    { score: 99, threshold: undefined, action: null },
  ])("$score against $threshold → $action", ({ score, threshold, action }) => {
    expect(scoreAction(score, threshold)).toBe(action);
  });
});
