/** The fit's pure steps: lambda by the one-standard-error rule, rounding, thresholds per type. */
import { describe, expect, it } from "vitest";
import { type Example, fitLogistic } from "../../../server/engine/fit.ts";
import { NEVER_NEGATIVE, SIGNAL_KEYS } from "../../../server/engine/signals.ts";
import { SCREEN_TYPES } from "../../../shared/schemas/screening.ts";
import { CEILINGS, MIN_ORDINARY } from "./thresholds.ts";
import {
  fitWithSigns,
  type Labelled,
  oneStandardError,
  rounded,
  scoreWith,
  thresholdsOf,
} from "./train.ts";

describe("oneStandardError", () => {
  it.each([
    {
      name: "the largest lambda within one standard error of the best",
      losses: [
        { lambda: 0.1, logLoss: 0.25, se: 0.005 },
        { lambda: 1, logLoss: 0.254, se: 0.005 },
        { lambda: 10, logLoss: 0.256, se: 0.005 },
      ],
      lambda: 1,
    },
    {
      name: "exactly one standard error away still counts",
      losses: [
        { lambda: 0.1, logLoss: 0.25, se: 0.01 },
        { lambda: 1, logLoss: 0.26, se: 0.01 },
      ],
      lambda: 1,
    },
    {
      name: "the best is the largest: it stands",
      losses: [
        { lambda: 0.1, logLoss: 0.3, se: 0.001 },
        { lambda: 1, logLoss: 0.2, se: 0.001 },
      ],
      lambda: 1,
    },
    {
      name: "nothing near the best: the best",
      losses: [
        { lambda: 0.1, logLoss: 0.2, se: 0.001 },
        { lambda: 1, logLoss: 0.25, se: 0.001 },
      ],
      lambda: 0.1,
    },
  ])("$name", ({ losses, lambda }) => {
    expect(oneStandardError(losses)).toBe(lambda);
  });
});

describe("rounded", () => {
  it.each([
    [1.23449, 1.234],
    [1.2345, 1.235],
    [-0.0004, 0],
    [2, 2],
  ])("%d → %d", (x, r) => {
    expect(Object.is(rounded(x), r)).toBe(true);
  });
});

describe("thresholdsOf", () => {
  /** A weight worth exactly `points` points at value 1 (10 points double the odds). */
  const pts = (points: number) => (points * Math.LN2) / 10;
  // Signups start at 50 + 10/ln2 · (−2) = 21.
  const model = {
    intercepts: { signup: -2 },
    weights: { device_new: pts(29), hosting_network: pts(40), no_browser: pts(15) },
  };
  const signup = (
    attack: boolean,
    signals: Record<string, number> = {},
    world = "w1",
  ): Labelled => ({ world, seed: 1, type: "signup", attack, signals });
  const many = (n: number, row: Labelled) => Array.from({ length: n }, () => row);

  it("reads each type's thresholds off its ordinary events' scores, attacks aside", () => {
    // 995 ordinary signups at 21, 5 with a new device at 50; 300 attacks at 50 do not count.
    const rows = [
      ...many(995, signup(false)),
      ...many(5, signup(false, { device_new: 1 })),
      ...many(300, signup(true, { device_new: 1 })),
    ];
    expect(scoreWith({ ...model, thresholds: {} }, signup(false))).toEqual({
      score: 21,
      families: 0,
    });
    expect(scoreWith({ ...model, thresholds: {} }, signup(false, { device_new: 1 })).score).toBe(
      50,
    );
    const choice = thresholdsOf(model, rows);
    expect(choice.thresholds.signup).toEqual({ review: 22, block: 22 });
    expect(choice.ordinary.signup).toBe(1000);
  });

  it("the worst world's false positives, not the pooled mean's", () => {
    // World w1: 1,000 signups at 21. World w2: 200, of which 10 (5%) at 50 on context alone.
    const worlds = [
      ...many(1000, signup(false, {}, "w1")),
      ...many(190, signup(false, {}, "w2")),
      ...many(10, signup(false, { device_new: 1 }, "w2")),
    ];
    // Pooled, 10 of 1,200 (0.8%) are within the 2% ceiling; in w2 alone they are not.
    expect(thresholdsOf(model, worlds).thresholds.signup).toEqual({ review: 51, block: 51 });
    const pooled = worlds.map((r) => ({ ...r, world: "one" }));
    expect(thresholdsOf(model, pooled).thresholds.signup).toEqual({ review: 22, block: 22 });
  });

  it("too few ordinary events is counted over every world together", () => {
    // 8 worlds of 30 signups: 240 together, more than MIN_ORDINARY; each world then holds its
    // one event at 50 (3.3% of 30) above review.
    const rows = Array.from({ length: 8 }, (_, w) => [
      ...many(29, signup(false, {}, `w${w}`)),
      signup(false, { device_new: 1 }, `w${w}`),
    ]).flat();
    const choice = thresholdsOf(model, rows);
    expect(choice.safeDefault).not.toContain("signup");
    expect(choice.thresholds.signup).toEqual({ review: 51, block: 51 });
    expect(thresholdsOf(model, rows.slice(0, MIN_ORDINARY - 1)).safeDefault).toContain("signup");
  });

  it("chooses again under the caps of its own choice until the thresholds repeat", () => {
    // 1,000 signups: 970 at 21; 20 with one family (device +15) at 36; 10 with two (network
    // +40, device +15) at 76 uncapped. Uncapped, review 37 and block 77; under review 37 the
    // network family counts at most +16, those 10 score 52, and block comes down to 53.
    const rows = [
      ...many(970, signup(false)),
      ...many(20, signup(false, { no_browser: 1 })),
      ...many(10, signup(false, { hosting_network: 1, no_browser: 1 })),
    ];
    const capped = { ...model, thresholds: { signup: { review: 37, block: 77 } } };
    expect(scoreWith(capped, signup(false, { hosting_network: 1, no_browser: 1 }))).toEqual({
      score: 52,
      families: 2,
    });
    const choice = thresholdsOf(model, rows);
    expect(choice.thresholds.signup).toEqual({ review: 37, block: 53 });
    expect(choice.rounds.signup).toEqual({ rounds: 3, converged: true });
    // With one round only, the uncapped choice stands.
    expect(thresholdsOf(model, rows, CEILINGS, 1).thresholds.signup).toEqual({
      review: 37,
      block: 77,
    });
  });

  it("every type gets an entry; those without enough ordinary events the safe default", () => {
    const choice = thresholdsOf(model, [signup(false)]);
    expect(Object.keys(choice.thresholds)).toEqual([...SCREEN_TYPES]);
    expect(choice.safeDefault).toEqual([...SCREEN_TYPES]);
    expect(choice.thresholds.checkout).toEqual({ review: null, block: null });
  });
});

describe("fitWithSigns", () => {
  // signups_subnet seen only on ordinary events: fitted freely its weight is negative.
  const rows: Example[] = [
    ...Array.from(
      { length: 200 },
      (_, i): Example => ({
        group: "signup",
        x: i % 2 ? { signups_subnet: 1 } : {},
        y: 0,
      }),
    ),
    ...Array.from({ length: 100 }, () => ({
      group: "signup",
      x: { hosting_network: 1 },
      y: 1 as const,
    })),
    ...Array.from({ length: 20 }, () => ({ group: "signup", x: {}, y: 1 as const })),
  ];

  it("holds a count an attacker repeats at 0 instead of letting it lower the score", () => {
    const free = fitLogistic(rows, { keys: SIGNAL_KEYS, lambda: 1 });
    expect(free.weights.signups_subnet).toBeLessThan(-0.5);
    const held = fitWithSigns(rows, 1);
    expect(held.weights.signups_subnet).toBe(0);
    expect(held.weights.hosting_network).toBeGreaterThan(1);
    expect(Object.keys(held.weights)).toEqual([...SIGNAL_KEYS]);
  });

  it("leaves a signal outside the set free to go negative", () => {
    const relay: Example[] = rows.map((r) =>
      r.x.signups_subnet ? { ...r, x: { relay_email: 1 } } : r,
    );
    expect(NEVER_NEGATIVE.has("relay_email")).toBe(false);
    expect(fitWithSigns(relay, 1).weights.relay_email).toBeLessThan(-0.5);
  });
});
