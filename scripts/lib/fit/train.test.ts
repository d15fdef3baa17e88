/** The fit's pure steps: lambda by the one-standard-error rule, rounding, thresholds per type. */
import { describe, expect, it } from "vitest";
import { type Example, fitLogistic } from "../../../server/engine/fit.ts";
import { SIGNAL_KEYS } from "../../../server/engine/signals.ts";
import { SCREEN_TYPES } from "../../../shared/schemas/screening.ts";
import {
  fitWithSigns,
  type Labelled,
  NEVER_NEGATIVE,
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
  // Signups start at 50 + 10/ln2 · (−2) = 21; device_new adds 10/ln2 per unit of weight.
  const model = { intercepts: { signup: -2 }, weights: { device_new: 2 } };
  const signup = (attack: boolean, deviceNew: boolean, seed = 1): Labelled => ({
    seed,
    type: "signup",
    attack,
    signals: deviceNew ? { device_new: 1 } : {},
  });

  it("reads each type's thresholds off its ordinary events' scores, attacks aside", () => {
    // 995 ordinary signups at 21, 5 with a new device at 50; 300 attacks at 50 do not count.
    const rows = [
      ...Array.from({ length: 995 }, () => signup(false, false)),
      ...Array.from({ length: 5 }, () => signup(false, true)),
      ...Array.from({ length: 300 }, () => signup(true, true)),
    ];
    expect(scoreWith(model, signup(false, false))).toBe(21);
    expect(scoreWith(model, signup(false, true))).toBe(50);
    const choice = thresholdsOf(model, rows);
    expect(choice.thresholds.signup).toEqual({ review: 22, block: 22 });
    expect(choice.ordinary.signup).toBe(1000);
  });

  it("every type gets an entry; those without enough ordinary events the safe default", () => {
    const choice = thresholdsOf(model, [signup(false, false)]);
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
