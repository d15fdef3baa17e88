import { describe, expect, it } from "vitest";
import { RULE_KEYS } from "../../shared/schemas/rules.ts";
import type { Thresholds } from "../../shared/score/weights.ts";
import {
  charge,
  counts,
  event,
  eventFeatures,
  features,
  policy,
} from "../../test/fixtures/engine.ts";
import { CHECKS, decisionOf, evaluate, RULES } from "./evaluate.ts";
import type { Policy } from "./types.ts";

describe("evaluate", () => {
  it.each([
    { name: "an ordinary charge is allowed", subject: charge(), rules: {}, decision: "allow" },
    {
      name: "one rule firing blocks",
      subject: charge({ riskScore: 82 }),
      rules: {},
      decision: "block",
    },
    {
      name: "a rule that is off abstains",
      subject: charge({ riskScore: 82 }),
      rules: { rule_high_risk: false },
      decision: "allow",
    },
  ])("$name", ({ subject, rules, decision }) => {
    expect(evaluate(subject, policy(rules), features()).decision).toBe(decision);
  });

  it("lists every firing rule in catalogue order, with its action, value and limit", () => {
    const result = evaluate(
      charge({
        riskScore: 91,
        cardCountry: "NG",
        email: "x@mailinator.com",
        earlyFraudWarning: { actionable: true, fraudType: "fraudulent" },
      }),
      policy({}, { countries: ["NG"] }),
      features(["mailinator.com"]),
    );
    expect(result).toEqual({
      decision: "block",
      score: 91,
      reasons: [
        {
          rule: "rule_efw",
          action: "block",
          message: "actionable early fraud warning (fraudulent)",
          observed: "fraudulent",
          limit: null,
        },
        {
          rule: "rule_high_risk",
          action: "block",
          message: "risk score 91 above threshold 70",
          observed: 91,
          limit: 70,
        },
        {
          rule: "rule_country_blocked",
          action: "block",
          message: "card country NG is blocked",
          observed: "NG",
          limit: null,
        },
        {
          rule: "rule_email",
          action: "block",
          message: "disposable email domain mailinator.com (on the disposable-domain list)",
          observed: "mailinator.com",
          limit: null,
        },
      ],
      monitored: [],
    });
  });

  it("takes its rule keys from the shared schema, each rule once", () => {
    const keys = RULES.map((rule) => rule.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(RULE_KEYS).toContain(key);
  });

  it("files each check under its own rule's key, one for every rule record", () => {
    for (const [key, rule] of Object.entries(CHECKS)) expect(rule.key).toBe(key);
    expect(Object.keys(CHECKS).sort()).toEqual([...RULE_KEYS].sort());
  });
});

describe("decisionOf", () => {
  it.each([
    { actions: [], decision: "allow" },
    { actions: ["review"], decision: "review" },
    { actions: ["review", "block"], decision: "block" },
    { actions: ["block", "review"], decision: "block" },
  ] as const)("$actions → $decision", ({ actions, decision }) => {
    expect(decisionOf(actions.map((action) => ({ action })))).toBe(decision);
  });
});

describe("evaluate on screened events", () => {
  // The 6th signup an hour from one device.
  const sixth = eventFeatures({
    counts: counts({ signupsLastHour: { ip: 5, subnet: 5, device: 5 } }),
  });

  it("a live block rule blocks; without a score model the event has no score", () => {
    const result = evaluate(event(), policy({ rule_signup_velocity: true }), sixth);
    expect(result).toMatchObject({ decision: "block", score: null, monitored: [] });
    expect(result.reasons[0]).toMatchObject({ rule: "rule_signup_velocity", action: "block" });
  });

  it("monitor mode reports the rule and never changes the decision", () => {
    const watching = policy(
      { rule_signup_velocity: true },
      {},
      { rule_signup_velocity: { mode: "monitor" } },
    );
    const result = evaluate(event(), watching, sixth);
    expect(result).toMatchObject({ decision: "allow", reasons: [] });
    expect(result.monitored).toEqual([
      expect.objectContaining({
        rule: "rule_signup_velocity",
        action: "block",
        observed: 6,
        limit: 5,
      }),
    ]);
  });

  it("a rule set to review reviews instead of blocking", () => {
    const soft = policy(
      { rule_signup_velocity: true },
      {},
      { rule_signup_velocity: { action: "review" } },
    );
    expect(evaluate(event(), soft, sixth)).toMatchObject({ decision: "review" });
  });

  it("a soft finding reviews even when the rule blocks", () => {
    const result = evaluate(
      event({ userAgent: null }),
      policy({ rule_scraping: true }),
      eventFeatures(),
    );
    expect(result.decision).toBe("review");
  });

  it("templates turn rules on for events but never for charges", () => {
    const withTemplate = policy(
      { rule_email: false },
      {},
      {},
      { template_disposable_email_throttle: true },
    );
    const disposable = eventFeatures({
      disposableDomains: new Set(["mailinator.com"]),
      counts: counts({ disposableSignupsLastHour: { disposable: 3 } }),
    });
    expect(evaluate(event({ email: "a@mailinator.com" }), withTemplate, disposable).decision).toBe(
      "block",
    );
    expect(evaluate(charge({ email: "a@mailinator.com" }), withTemplate, disposable).decision).toBe(
      "allow",
    );
  });
});

describe("evaluate with the risk score", () => {
  const weights = {
    version: "test-1",
    fitted: {},
    intercepts: { signup: -2 },
    weights: { hosting_network: 2, no_browser: 2, disposable_email: 3 },
    thresholds: {},
  };
  const scored = (thresholds: Thresholds): Policy => ({
    ...policy({ rule_email: false }),
    score: { weights, thresholds },
  });
  const risky = event({ email: "x@mailinator.com", deviceId: null });
  const riskyFeatures = eventFeatures({
    geo: { country: "DE", asn: 24940, hosting: true },
    disposableDomains: new Set(["mailinator.com"]),
    counts: counts({ domainSignups30Days: { domain: 40 } }),
  });

  it("scores every event and shows its parts, summing to the score", () => {
    const result = evaluate(risky, scored({}), riskyFeatures);
    // 50 − 29 (baseline) + 29 + 29 + 43 = 122, held to 100.
    expect(result.score).toBe(100);
    expect(result.contributions?.map((c) => [c.signal, c.points])).toEqual([
      ["baseline", 21],
      ["disposable_email", 43],
      ["hosting_network", 29],
      ["no_browser", 29],
    ]);
    expect(result.decision).toBe("allow");
  });

  it("a score at or above the type's thresholds reviews or blocks, saying what drove it", () => {
    const review = evaluate(risky, scored({ signup: { review: 90, block: null } }), riskyFeatures);
    expect(review.decision).toBe("review");
    expect(review.reasons).toEqual([
      {
        rule: "risk_score",
        action: "review",
        message:
          "risk score 100 is at or above the review threshold 90 for a signup (+43 disposable email domain mailinator.com, +29 from a hosting provider's network (AS24940), +29 no collector token and no device id)",
        observed: 100,
        limit: 90,
      },
    ]);
    const block = evaluate(risky, scored({ signup: { review: 60, block: 95 } }), riskyFeatures);
    expect(block).toMatchObject({
      decision: "block",
      reasons: [{ rule: "risk_score", action: "block" }],
    });
  });

  it("a block on one family of evidence is held at review, and the reason says so", () => {
    // Review and block both at 48: the hosting network alone (+29, capped at 48 − 21 = 27)
    // reaches block and is held; with no browser (+29, device) and a disposable inbox (+43,
    // email) beside it, three families block.
    const network = event({ email: "x@gmail.com", deviceId: "dev-1" });
    const onlyNetwork = evaluate(
      network,
      scored({ signup: { review: 48, block: 48 } }),
      eventFeatures({ geo: { country: "DE", asn: 24940, hosting: true } }),
    );
    expect(onlyNetwork.decision).toBe("review");
    expect(onlyNetwork.reasons).toEqual([
      {
        rule: "risk_score",
        action: "review",
        message:
          "risk score reached the block threshold 48 for a signup (+29 from a hosting provider's network (AS24940)); held at review (48): evidence from one family only (network), a block needs two",
        observed: 48,
        limit: 48,
      },
    ]);
    const two = evaluate(risky, scored({ signup: { review: 48, block: 48 } }), riskyFeatures);
    expect(two).toMatchObject({ decision: "block", reasons: [{ action: "block", limit: 48 }] });
  });

  it("thresholds of another event type, or none, leave the decision to the rules", () => {
    expect(
      evaluate(risky, scored({ checkout: { review: 1, block: 2 } }), riskyFeatures).decision,
    ).toBe("allow");
    const calm = evaluate(
      event(),
      scored({ signup: { review: 65, block: 80 } }),
      eventFeatures({
        counts: counts({ domainSignups30Days: { domain: 40 } }),
      }),
    );
    expect(calm).toMatchObject({ decision: "allow", score: 21, reasons: [] });
  });

  it("an allow-list entry overrides the score like any rule", () => {
    const trusted = {
      ...scored({ signup: { review: 60, block: 95 } }),
      allowList: [
        {
          kind: "user_id" as const,
          value: "user_1",
          addedBy: "a@b.c",
          addedAt: "2026-01-01T00:00:00Z",
          expiresAt: null,
        },
      ],
    };
    const result = evaluate(risky, trusted, riskyFeatures);
    expect(result.decision).toBe("allow");
    expect(result.monitored).toMatchObject([{ rule: "risk_score", action: "block" }]);
    expect(result.allowed?.rules).toEqual(["risk_score"]);
  });
});
