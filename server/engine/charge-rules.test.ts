import { describe, expect, it } from "vitest";
import {
  type ChargeFeatures,
  type ChargePolicy,
  type ChargeSubject,
  emailDomain,
  evaluateCharge,
} from "./charge-rules.ts";

const subject = (overrides: Partial<ChargeSubject> = {}): ChargeSubject => ({
  email: "jane@example.com",
  riskScore: 30,
  cardCountry: "US",
  billingCountry: "US",
  earlyFraudWarning: null,
  ...overrides,
});

const ALL_ON = {
  rule_high_risk: true,
  rule_country_blocked: true,
  rule_email: true,
  rule_efw: true,
  risk_level_threshold: 70,
};
const ALL_OFF = {
  ...ALL_ON,
  rule_high_risk: false,
  rule_country_blocked: false,
  rule_email: false,
  rule_efw: false,
};

const policy = (
  rules: Partial<ChargePolicy["rules"]> = {},
  blocklist: Partial<ChargePolicy["blocklist"]> = {},
): ChargePolicy => ({
  rules: { ...ALL_ON, ...rules },
  blocklist: { countries: [], email_providers: [], ...blocklist },
});

const clean: ChargeFeatures = { disposableEmailDomain: false };

describe("evaluateCharge", () => {
  it.each<[string, ChargeSubject, ChargePolicy, ChargeFeatures, string[]]>([
    ["an ordinary charge passes", subject(), policy(), clean, []],
    [
      "score above the threshold",
      subject({ riskScore: 82 }),
      policy(),
      clean,
      ["risk score 82 above threshold 70"],
    ],
    ["score equal to the threshold passes", subject({ riskScore: 70 }), policy(), clean, []],
    [
      "threshold 0 blocks any score, even 0",
      subject({ riskScore: 0 }),
      policy({ risk_level_threshold: 0 }),
      clean,
      ["risk score 0 above threshold 0"],
    ],
    [
      "threshold 100 blocks nothing",
      subject({ riskScore: 100 }),
      policy({ risk_level_threshold: 100 }),
      clean,
      [],
    ],
    [
      "no score, no risk verdict",
      subject({ riskScore: null }),
      policy({ risk_level_threshold: 0 }),
      clean,
      [],
    ],
    ["high risk off", subject({ riskScore: 99 }), policy({ rule_high_risk: false }), clean, []],
    [
      "blocked card country",
      subject({ cardCountry: "NG" }),
      policy({}, { countries: ["NG"] }),
      clean,
      ["card country NG is blocked"],
    ],
    [
      "blocked billing country",
      subject({ billingCountry: "br" }),
      policy({}, { countries: ["BR"] }),
      clean,
      ["billing country BR is blocked"],
    ],
    [
      "country rule off",
      subject({ cardCountry: "NG" }),
      policy({ rule_country_blocked: false }, { countries: ["NG"] }),
      clean,
      [],
    ],
    [
      "blocked provider",
      subject({ email: "Jane@Mail.RU" }),
      policy({}, { email_providers: ["mail.ru"] }),
      clean,
      ["email provider mail.ru is blocked"],
    ],
    [
      "disposable domain",
      subject({ email: "x@mailinator.com" }),
      policy(),
      { disposableEmailDomain: true },
      ["disposable email domain mailinator.com"],
    ],
    [
      "email rule off",
      subject({ email: "x@mailinator.com" }),
      policy({ rule_email: false }),
      { disposableEmailDomain: true },
      [],
    ],
    [
      "no email",
      subject({ email: null }),
      policy({}, { email_providers: ["example.com"] }),
      clean,
      [],
    ],
    [
      "actionable early fraud warning",
      subject({ earlyFraudWarning: { actionable: true, fraudType: "made_with_stolen_card" } }),
      policy(),
      clean,
      ["actionable early fraud warning (made_with_stolen_card)"],
    ],
    [
      "warning that is not actionable",
      subject({ earlyFraudWarning: { actionable: false, fraudType: "misc" } }),
      policy(),
      clean,
      [],
    ],
    [
      "everything off",
      subject({
        riskScore: 99,
        cardCountry: "NG",
        earlyFraudWarning: { actionable: true, fraudType: "misc" },
      }),
      { ...policy({}, { countries: ["NG"] }), rules: ALL_OFF },
      { disposableEmailDomain: true },
      [],
    ],
    [
      "several rules at once, warning first",
      subject({
        riskScore: 91,
        cardCountry: "NG",
        earlyFraudWarning: { actionable: true, fraudType: "fraudulent" },
      }),
      policy({}, { countries: ["NG"] }),
      clean,
      [
        "actionable early fraud warning (fraudulent)",
        "risk score 91 above threshold 70",
        "card country NG is blocked",
      ],
    ],
  ])("%s", (_name, s, p, f, expected) => {
    const decision = evaluateCharge(s, p, f);
    expect(decision.reasons.map((r) => r.message)).toEqual(expected);
    expect(decision.action).toBe(expected.length > 0 ? "block" : "allow");
    expect(decision.score).toBe(s.riskScore);
  });
});

describe("emailDomain", () => {
  it.each([
    ["jane@example.com", "example.com"],
    ["Jane@Example.COM", "example.com"],
    ["odd@name@host.io", "host.io"],
    ["no-at-sign", null],
    ["trailing@", null],
    [null, null],
  ])("%j → %j", (email, domain) => {
    expect(emailDomain(email)).toBe(domain);
  });
});
