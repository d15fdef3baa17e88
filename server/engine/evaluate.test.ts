import { describe, expect, it } from "vitest";
import { RULE_KEYS } from "../../shared/schemas/rules.ts";
import { charge, features, policy } from "../../test/fixtures/engine.ts";
import { decisionOf, evaluate, RULES } from "./evaluate.ts";

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
          message: "disposable email domain mailinator.com",
          observed: "mailinator.com",
          limit: null,
        },
      ],
    });
  });

  it("takes its rule keys from the shared schema, each rule once", () => {
    const keys = RULES.map((rule) => rule.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(RULE_KEYS).toContain(key);
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
