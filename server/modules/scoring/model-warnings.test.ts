import { describe, expect, it } from "vitest";
import type { ModelMetrics } from "../../../shared/schemas/score-models.ts";
import type { Weights } from "../../../shared/score/weights.ts";
import { POINTS_PER_LOG_ODDS } from "../../engine/score.ts";
import { warningsOf } from "./model-warnings.ts";

/** The shipped weights, as far as the warnings read them: which signals count toward abuse. */
const SHIPPED: Weights = {
  version: "default-test",
  fitted: {},
  intercepts: { signup: -4 },
  weights: {
    bot_user_agent: 3.767,
    disposable_email: 1.249,
    relay_email: -2.293,
    webdriver: 0.013,
  },
  thresholds: {},
};
const withWeights = (weights: Record<string, number>): Weights => ({
  ...SHIPPED,
  version: "acct-1",
  weights: { ...SHIPPED.weights, ...weights },
});
/** A weight of `points` points per unit. */
const w = (points: number) => points / POINTS_PER_LOG_ODDS;

const metrics = (over: {
  recent?: Partial<ModelMetrics["recent"]>;
  labels?: Partial<ModelMetrics["labels"]>;
  changes?: ModelMetrics["changes"];
}): ModelMetrics => ({
  labels: {
    fraud: 60,
    legitimate: 60,
    from: { labels: 120, reviews: 0, stripe: 0 },
    capped: false,
    top_source: null,
    ...over.labels,
  },
  compared_with: "default-test",
  thresholds: {},
  folds: 5,
  lambda: 10,
  labelled: {
    current: { fraud: { blocked: 0, reviewed: 0 }, legitimate: { blocked: 0, reviewed: 0 } },
    proposed: { fraud: { blocked: 0, reviewed: 0 }, legitimate: { blocked: 0, reviewed: 0 } },
  },
  recent: {
    days: 30,
    screenings: 200,
    capped: false,
    current: { blocked: 0, reviewed: 0 },
    proposed: { blocked: 0, reviewed: 0 },
    still_blocked: 0,
    ...over.recent,
  },
  changes: over.changes ?? [],
  took_ms: 1,
});

const key = { kind: "api_key" as const, id: "k1", name: '"backend" (wdn_sk_ab12…)' };

describe("warningsOf: what a proposal must have confirmed", () => {
  it.each([
    ["a proposal that changes little: none", withWeights({}), metrics({}), []],
    [
      "the red team's: blocked 61 → 0, disposable email +18 → −20.7, every label from one key",
      withWeights({ disposable_email: w(-20.7), bot_user_agent: w(-30) }),
      metrics({
        recent: { current: { blocked: 61, reviewed: 3 }, proposed: { blocked: 0, reviewed: 0 } },
        labels: { top_source: { ...key, labels: 120 } },
        changes: [
          { signal: "bot_user_agent", from: 54.3, to: -30 },
          { signal: "disposable_email", from: 18, to: -20.7 },
        ],
      }),
      ["stops_blocking", "attack_signal_negative", "one_source"],
    ],
    [
      "stops blocking 6 of 10 (more than half)",
      withWeights({}),
      metrics({ recent: { current: { blocked: 10, reviewed: 0 }, still_blocked: 4 } }),
      ["stops_blocking"],
    ],
    [
      "stops blocking 5 of 10 (half): none",
      withWeights({}),
      metrics({ recent: { current: { blocked: 10, reviewed: 0 }, still_blocked: 5 } }),
      [],
    ],
    [
      "blocks as many, but others than today's: stops blocking 8 of 10",
      withWeights({}),
      metrics({
        recent: {
          current: { blocked: 10, reviewed: 0 },
          proposed: { blocked: 10, reviewed: 0 },
          still_blocked: 2,
        },
      }),
      ["stops_blocking"],
    ],
    [
      "stored before the overlap was counted: read from the totals (10 → 4)",
      withWeights({}),
      metrics({
        recent: {
          current: { blocked: 10, reviewed: 0 },
          proposed: { blocked: 4, reviewed: 0 },
          still_blocked: undefined,
        },
      }),
      ["stops_blocking"],
    ],
    ["nothing blocked today: none", withWeights({}), metrics({}), []],
    [
      "an attack signal at −0.6 points",
      withWeights({ webdriver: w(-0.6) }),
      metrics({}),
      ["attack_signal_negative"],
    ],
    [
      "an attack signal at −0.4 points (rounds to no point off): none",
      withWeights({ webdriver: w(-0.4) }),
      metrics({}),
      [],
    ],
    [
      "a signal the shipped weights count against abuse, more so: none",
      withWeights({ relay_email: w(-60) }),
      metrics({}),
      [],
    ],
    [
      "one key gave 61 of 120",
      withWeights({}),
      metrics({ labels: { top_source: { ...key, labels: 61 } } }),
      ["one_source"],
    ],
    [
      "one member gave 60 of 120 (half): none",
      withWeights({}),
      metrics({ labels: { top_source: { ...key, kind: "member", labels: 60 } } }),
      [],
    ],
    [
      "no backtest stored: only what the weights say",
      withWeights({ disposable_email: w(-5) }),
      null,
      ["attack_signal_negative"],
    ],
  ] as const)("%s", (_name, proposed, stored, codes) => {
    expect(warningsOf(proposed, stored, SHIPPED).map((x) => x.code)).toEqual(codes);
  });

  it("says each in figures and in words", () => {
    const warnings = warningsOf(
      withWeights({ disposable_email: w(-20.7), webdriver: w(-1) }),
      metrics({
        recent: { current: { blocked: 61, reviewed: 0 }, still_blocked: 0 },
        labels: { top_source: { ...key, labels: 110 }, fraud: 61, legitimate: 50 },
        changes: [{ signal: "disposable_email", from: 18, to: -20.7 }],
      }),
      SHIPPED,
    );
    expect(warnings).toEqual([
      {
        code: "stops_blocking",
        message:
          "These weights would let through 61 of the 61 screenings (100%) the weights in force blocked in the last 30 days. Adopt them only if you know those screenings were not abuse.",
        days: 30,
        blocked_now: 61,
        still_blocked: 0,
      },
      {
        code: "attack_signal_negative",
        message:
          "These weights would count signs of abuse as evidence against it: disposable email +18.0 → −20.7 points, webdriver −1.0 points. A screening that shows them would score lower, not higher. Labels that call such screenings legitimate, by mistake or on purpose, do this.",
        signals: [
          { signal: "disposable_email", from: 18, to: -20.7 },
          { signal: "webdriver", from: -1, to: -1 },
        ],
      },
      {
        code: "one_source",
        message:
          '110 of the 111 labelled screenings these weights learnt from (99%) were labelled by one API key, "backend" (wdn_sk_ab12…). If those labels are wrong, or the key is in the wrong hands, so are these weights.',
        source: key,
        labels: 110,
        of: 111,
        share: 0.991,
      },
    ]);
  });
});
