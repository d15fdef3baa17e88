/**
 * The one rule engine: evaluate(subject, policy, features) → decision, score and reasons, for
 * every kind of subject. No I/O: the caller loads the policy and features and acts on the
 * answer. Block wins over review, review over allow; a rule that is off, or does not judge
 * this kind of subject, abstains.
 */
import { countryBlocked } from "./rules/country-blocked.ts";
import { earlyFraudWarning } from "./rules/efw.ts";
import { email } from "./rules/email.ts";
import { highRisk } from "./rules/high-risk.ts";
import type { Decision, Evaluation, Features, Policy, Reason, Rule, Subject } from "./types.ts";

/** Every rule, in the order their reasons are listed. */
export const RULES: readonly Rule[] = [earlyFraudWarning, highRisk, countryBlocked, email];

export function evaluate(subject: Subject, policy: Policy, features: Features): Evaluation {
  const reasons: Reason[] = [];
  for (const rule of RULES) {
    if (!policy.rules[rule.key] || !rule.appliesTo.includes(subject.kind)) continue;
    const finding = rule.check(subject, policy, features);
    if (finding) reasons.push({ rule: rule.key, action: rule.action, ...finding });
  }
  return { decision: decisionOf(reasons), score: subject.riskScore, reasons };
}

/** Block if any reason blocks, else review if any reviews, else allow. */
export function decisionOf(reasons: readonly Pick<Reason, "action">[]): Decision {
  if (reasons.some((reason) => reason.action === "block")) return "block";
  if (reasons.length > 0) return "review";
  return "allow";
}
