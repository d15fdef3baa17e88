/**
 * The Standard rules over one charge: plain data in, a decision with reasons out. No I/O:
 * the caller loads the merchant's policy and the features (such as whether the email's
 * domain is a known disposable one) and acts on the decision.
 */
import type { Blocklist } from "../../shared/schemas/blocklist.ts";
import type { Rules } from "../../shared/schemas/rules.ts";

export type ChargeSubject = {
  email: string | null;
  riskScore: number | null;
  cardCountry: string | null;
  billingCountry: string | null;
  earlyFraudWarning: { actionable: boolean; fraudType: string | null } | null;
};

export type ChargePolicy = {
  rules: Pick<
    Rules,
    "rule_high_risk" | "rule_country_blocked" | "rule_email" | "rule_efw" | "risk_level_threshold"
  >;
  blocklist: Blocklist;
};

export type ChargeFeatures = { disposableEmailDomain: boolean };

export type RuleKey = "rule_high_risk" | "rule_country_blocked" | "rule_email" | "rule_efw";
export type Reason = { rule: RuleKey; message: string };
export type ChargeDecision = { action: "allow" | "block"; score: number | null; reasons: Reason[] };

/** The part of an email address after the last @, lowercased; null when there is none. */
export function emailDomain(email: string | null): string | null {
  if (!email) return null;
  const at = email.lastIndexOf("@");
  if (at < 0 || at === email.length - 1) return null;
  return email
    .slice(at + 1)
    .trim()
    .toLowerCase();
}

type Check = (
  subject: ChargeSubject,
  policy: ChargePolicy,
  features: ChargeFeatures,
) => string | null;

const CHECKS: Record<RuleKey, Check> = {
  rule_high_risk(subject, policy) {
    const score = subject.riskScore;
    const threshold = policy.rules.risk_level_threshold;
    if (score === null) return null;
    // Threshold 0 is "most strict": it blocks every charge that has a score, 0 included.
    if (score > threshold || threshold === 0) {
      return `risk score ${score} above threshold ${threshold}`;
    }
    return null;
  },
  rule_country_blocked(subject, policy) {
    const blocked = new Set(policy.blocklist.countries);
    if (subject.cardCountry && blocked.has(subject.cardCountry.toUpperCase())) {
      return `card country ${subject.cardCountry.toUpperCase()} is blocked`;
    }
    if (subject.billingCountry && blocked.has(subject.billingCountry.toUpperCase())) {
      return `billing country ${subject.billingCountry.toUpperCase()} is blocked`;
    }
    return null;
  },
  rule_email(subject, policy, features) {
    const domain = emailDomain(subject.email);
    if (!domain) return null;
    if (policy.blocklist.email_providers.includes(domain)) {
      return `email provider ${domain} is blocked`;
    }
    if (features.disposableEmailDomain) return `disposable email domain ${domain}`;
    return null;
  },
  rule_efw(subject) {
    const warning = subject.earlyFraudWarning;
    if (!warning?.actionable) return null;
    return `actionable early fraud warning (${warning.fraudType ?? "unspecified"})`;
  },
};

const ORDER: RuleKey[] = ["rule_efw", "rule_high_risk", "rule_country_blocked", "rule_email"];

export function evaluateCharge(
  subject: ChargeSubject,
  policy: ChargePolicy,
  features: ChargeFeatures,
): ChargeDecision {
  const reasons: Reason[] = [];
  for (const rule of ORDER) {
    if (!policy.rules[rule]) continue;
    const message = CHECKS[rule](subject, policy, features);
    if (message) reasons.push({ rule, message });
  }
  return { action: reasons.length > 0 ? "block" : "allow", score: subject.riskScore, reasons };
}
