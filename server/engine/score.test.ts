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

describe("no single kind of evidence blocks", () => {
  // Baseline 7 for a signup; review at 40, block at 60.
  const guarded: Weights = {
    ...weights,
    weights: {
      account_new: 2,
      device_new: 2,
      domain_signups: 3,
      random_email: 1,
      hosting_network: 2.5,
      fast_submit: 0.1,
      relay_network: -2,
    },
    thresholds: { signup: { review: 40, block: 60 } },
  };
  const sumOf = (contributions: { points: number }[]) =>
    contributions.reduce((sum, c) => sum + c.points, 0);

  it("one family's points stop at review, and a block is held there: the answer says why", () => {
    const scored = scoreOf(
      "signup",
      [signal("domain_signups", 4, "19 others with acme.io"), signal("random_email", 1)],
      guarded,
    );
    // 173 + 14 points of email evidence, capped at 40 - 7 = 33.
    expect(scored.score).toBe(40);
    expect(scored.families).toEqual(["email"]);
    expect(scored.held).toBe(false);
    expect(scored.contributions.at(-1)).toMatchObject({ signal: "cap_email", points: 33 - 187 });
    expect(sumOf(scored.contributions)).toBe(scored.score);
    expect(scoreAction(scored.score, guarded.thresholds.signup, scored.families.length)).toBe(
      "review",
    );
  });

  it("what every newcomer carries moves a score below review, never to it", () => {
    const scored = scoreOf("signup", [signal("account_new", 1), signal("device_new", 1)], guarded);
    // 29 + 29 points of context, capped at 40 - 1 - 7 = 32.
    expect(scored.score).toBe(39);
    expect(scored.families).toEqual([]);
    expect(scoreAction(scored.score, guarded.thresholds.signup, 0)).toBeNull();
  });

  it("context beside one family passes block only to be held at review", () => {
    const scored = scoreOf(
      "signup",
      [signal("account_new", 1), signal("device_new", 1), signal("domain_signups", 4)],
      guarded,
    );
    expect(scored.held).toBe(true);
    expect(scored.score).toBe(59);
    expect(scored.contributions.at(-1)).toMatchObject({
      signal: "held_at_review",
      detail: "held at review: evidence from one family only (email)",
    });
    expect(sumOf(scored.contributions)).toBe(59);
    expect(scoreAction(scored.score, guarded.thresholds.signup, scored.families.length)).toBe(
      "review",
    );
  });

  it("two families of evidence block", () => {
    const scored = scoreOf(
      "signup",
      [signal("domain_signups", 2), signal("hosting_network", 1), signal("account_new", 1)],
      guarded,
    );
    expect(scored.families).toEqual(["network", "email"]);
    expect(scored.held).toBe(false);
    expect(scored.score).toBeGreaterThanOrEqual(60);
    expect(scoreAction(scored.score, guarded.thresholds.signup, scored.families.length)).toBe(
      "block",
    );
  });

  it("a hint of evidence (under EVIDENCE_POINTS) and a family that nets negative are not a second kind", () => {
    const scored = scoreOf(
      "signup",
      [
        signal("domain_signups", 4),
        signal("fast_submit", 1),
        signal("hosting_network", 1),
        signal("relay_network", 1.5),
        signal("account_new", 1),
        signal("device_new", 1),
      ],
      guarded,
    );
    expect(scored.families).toEqual(["email"]);
    expect(scored.held).toBe(true);
  });

  it("without a threshold nothing is capped or held: the score is shown, never acts", () => {
    const scored = scoreOf("signup", [signal("domain_signups", 4)], { ...guarded, thresholds: {} });
    expect(scored.score).toBe(100);
    expect(scored.held).toBe(false);
  });

  it("scoreAction holds a block at review on fewer than two families, whatever the score", () => {
    expect(scoreAction(100, { review: 40, block: 60 }, 1)).toBe("review");
    expect(scoreAction(100, { review: 40, block: 60 }, 2)).toBe("block");
  });
});
