/** The two-hour run's pure parts: what the merchant labels, hour 2's new accounts, the report. */
import { describe, expect, it } from "vitest";
import type { Outcome } from "./driver.ts";
import type { SimEvent } from "./journey.ts";
import { figuresOf } from "./report.ts";
import { rng } from "./rng.ts";
import {
  ceilingsOf,
  type HourFigures,
  LABELLED_AT,
  meanScore,
  namespaced,
  SECOND_HOUR_AT,
  signalShares,
  timelineOf,
} from "./two-hours.ts";
import { labelsOf } from "./two-hours-labels.ts";
import { goalLines, labelsTable } from "./two-hours-report.ts";

const outcome = (
  id: string,
  population: string,
  attack: boolean,
  decision: Outcome["decision"],
): Outcome => ({
  at: 0,
  population,
  attack,
  payoff: true,
  actor: `${population}:${id}`,
  type: "signup",
  decision,
  reasons: [],
  id,
  score: 0,
  signals: {},
});

/** A generator whose draws are given: the sample and the confirmed blocks read them. */
const draws = (...values: number[]) => {
  const r = rng(1);
  let i = 0;
  return { ...r, next: () => values[i++] ?? 0.99 };
};

describe("labelsOf: what the merchant labels after hour 1", () => {
  it.each([
    [
      "a reviewed attack: denied, fraud",
      true,
      "review",
      0.99,
      { decision: "deny", label: "fraud", why: "reviewed" },
    ],
    [
      "a reviewed customer: approved, legitimate",
      false,
      "review",
      0.99,
      { decision: "approve", label: "legitimate", why: "reviewed" },
    ],
    [
      "a blocked customer complains: legitimate",
      false,
      "block",
      0.99,
      { label: "legitimate", why: "contested" },
    ],
    [
      "a blocked attack, looked into: fraud",
      true,
      "block",
      0.1,
      { label: "fraud", why: "confirmed" },
    ],
    ["a blocked attack, not looked into", true, "block", 0.3, null],
    [
      "an allowed attack found out later: fraud",
      true,
      "allow",
      0.04,
      { label: "fraud", why: "sampled" },
    ],
    [
      "an allowed customer in the sample: legitimate",
      false,
      "allow",
      0.01,
      { label: "legitimate", why: "sampled" },
    ],
    ["an allowed event outside the sample", false, "allow", 0.06, null],
  ] as const)("%s", (_name, attack, decision, draw, expected) => {
    const plans = labelsOf([outcome("s1", "p", attack, decision)], draws(draw));
    if (expected === null) expect(plans).toEqual([]);
    else expect(plans).toEqual([{ id: "s1", population: "p", attack, ...expected }]);
  });

  it.each([
    ["found out (--found-out relay_promo_farm=0.5): fraud", "relay_promo_farm", 0.3, "found"],
    ["not found out", "relay_promo_farm", 0.6, null],
    ["another population is not found out", "promo_stuffing", 0.3, null],
  ] as const)("an allowed attack %s", (_name, population, draw, why) => {
    const shares = { allowed: 0.05, confirmedBlocks: 0.25, foundOut: { relay_promo_farm: 0.5 } };
    const plans = labelsOf([outcome("s1", population, true, "allow")], draws(draw), shares);
    expect(plans).toEqual(why ? [{ id: "s1", population, attack: true, label: "fraud", why }] : []);
  });

  it("draws once per outcome, so one event's decision never moves another's sample", () => {
    const outcomes = (first: Outcome["decision"]) => [
      outcome("s1", "p", false, first),
      outcome("s2", "p", false, "allow"),
    ];
    const sampled = (first: Outcome["decision"]) =>
      labelsOf(outcomes(first), draws(0.5, 0.01)).filter((p) => p.id === "s2");
    expect(sampled("allow")).toEqual(sampled("review"));
    expect(sampled("allow")).toHaveLength(1);
  });

  it("samples about 5% of allowed events, the same ones for the same seed", () => {
    const many = Array.from({ length: 20_000 }, (_, i) => outcome(`s${i}`, "p", false, "allow"));
    const once = labelsOf(many, rng(22).fork("labels"));
    expect(once.length / many.length).toBeGreaterThan(0.045);
    expect(once.length / many.length).toBeLessThan(0.055);
    expect(labelsOf(many, rng(22).fork("labels"))).toEqual(once);
  });
});

describe("namespaced: hour 2's accounts are new accounts", () => {
  const event = (screen: SimEvent["screen"]): SimEvent => ({
    at: 0,
    population: "p",
    attack: false,
    actor: "p:1",
    screen,
    collect: null,
  });

  it("prefixes user ids, referrers and the referral codes that name them; keeps the rest", () => {
    const [renamed] = namespaced(
      [
        event({
          type: "referral",
          user_id: "u_p_1",
          referrer_user_id: "u_p_0",
          referral_code: "ref_u_p_0",
          email: "a@example.com",
        }),
      ],
      "h2_",
    );
    expect(renamed?.actor).toBe("h2_p:1");
    expect(renamed?.screen).toEqual({
      type: "referral",
      user_id: "h2_u_p_1",
      referrer_user_id: "h2_u_p_0",
      referral_code: "ref_h2_u_p_0",
      email: "a@example.com",
    });
  });

  it("leaves an event without a user as it was, but for its actor", () => {
    const [renamed] = namespaced([event({ type: "request", ip: "1.2.3.4" })], "h2_");
    expect(renamed?.screen).toEqual({ type: "request", ip: "1.2.3.4" });
  });
});

describe("signalShares and meanScore", () => {
  const scored = (score: number, signals: Record<string, number>) => ({
    ...outcome("s", "relay_promo_farm", true, "allow"),
    score,
    signals,
  });

  it("says how often each signal spoke and its mean value then, most frequent first", () => {
    const outcomes = [
      scored(40, { relay_email: 1, even_typing: 0.4 }),
      scored(60, { relay_email: 1, even_typing: 0.6 }),
      scored(50, { relay_email: 1 }),
      scored(70, { hosting_network: 1, relay_email: 1 }),
    ];
    expect(signalShares(outcomes)).toEqual([
      { signal: "relay_email", share: 1, mean: 1 },
      { signal: "even_typing", share: 0.5, mean: 0.5 },
      { signal: "hosting_network", share: 0.25, mean: 1 },
    ]);
    expect(meanScore(outcomes)).toBe(55);
    expect(meanScore([])).toBe(0);
  });
});

describe("timelineOf: both hours on one clock that only moves on", () => {
  const at = (t: number, actor: string): SimEvent => ({
    at: t,
    population: "p",
    attack: false,
    actor,
    screen: { type: "signup" },
    collect: null,
  });
  const HOUR = 3_600_000;

  it("plays hour 1 and hour 2's old history before the labels, hour 2 after, in time order", () => {
    const first = [at(-2 * HOUR, "a"), at(0, "b"), at(HOUR - 1, "c")];
    const second = [at(-30 * HOUR, "x"), at(-20 * HOUR, "y"), at(0, "z")];
    const { before, after } = timelineOf(first, second);
    expect(before.map((t) => [t.event.actor, t.hour, t.event.at])).toEqual([
      ["x", 2, SECOND_HOUR_AT - 30 * HOUR],
      ["a", 1, -2 * HOUR],
      ["b", 1, 0],
      ["c", 1, HOUR - 1],
    ]);
    expect(after.map((t) => [t.event.actor, t.hour, t.event.at])).toEqual([
      ["y", 2, SECOND_HOUR_AT - 20 * HOUR],
      ["z", 2, SECOND_HOUR_AT],
    ]);
    expect(after.every((t) => t.event.at >= LABELLED_AT)).toBe(true);
  });

  it("keeps hour 1 first at equal times", () => {
    const { before } = timelineOf([at(0, "a")], [at(-SECOND_HOUR_AT, "x")]);
    expect(before.map((t) => t.event.actor)).toEqual(["a", "x"]);
  });
});

describe("ceilingsOf", () => {
  it("copies the weights' default thresholds for every event type they name", () => {
    const defaults = { signup: { review: 60, block: 80 }, checkout: { review: 70, block: null } };
    expect(ceilingsOf(defaults)).toEqual(defaults);
  });
});

describe("the report", () => {
  const hour = (name: string, caught: number, blocked: number): HourFigures => {
    const outcomes = [
      ...Array.from({ length: 10 }, (_, i) =>
        outcome(`u${i}`, "relay_promo_farm", true, i < caught ? "review" : "allow"),
      ),
      ...Array.from({ length: 1000 }, (_, i) =>
        outcome(`o${i}`, "home", false, i < blocked ? "block" : "allow"),
      ),
    ];
    return { ...figuresOf(name, outcomes, null), seed: 1, weights: "w" };
  };

  it.each([
    [9, 0, "90.0%, met"],
    [8, 0, "80.0%, NOT met"],
  ])("the unseen goal: %i of 10 caught in hour 2", (caught, blocked, verdict) => {
    const lines = goalLines(
      [hour("hour 1", 2, 0), hour("hour 2", caught, blocked)],
      "relay_promo_farm",
    );
    expect(lines.at(-1)).toContain(verdict);
  });

  it.each([
    [5, "ordinary blocked 0.5% (≤ 0.5%: met)"],
    [6, "ordinary blocked 0.6% (≤ 0.5%: NOT met)"],
  ])("the blocked ceiling with %i of 1000 ordinary events blocked", (blocked, text) => {
    expect(goalLines([hour("hour 2", 10, blocked)], "relay_promo_farm")[0]).toContain(text);
  });

  it("counts labels by why and class, and the unseen attack's", () => {
    const plans = labelsOf(
      [
        outcome("a", "relay_promo_farm", true, "review"),
        outcome("b", "home", false, "review"),
        outcome("c", "home", false, "block"),
      ],
      draws(0.99, 0.99, 0.99),
    );
    const table = labelsTable(plans, "relay_promo_farm");
    expect(table).toContain(
      "| reviewed (denied or approved in the queue, and labelled) | 1 | 1 | 1 |",
    );
    expect(table).toContain("| blocked, contested by the customer | 0 | 1 | 0 |");
    expect(table).toContain("| all | 1 | 2 | 1 |");
    expect(table).not.toContain("--found-out");
  });
});
