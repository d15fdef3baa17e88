/**
 * The one rule engine: evaluate(subject, policy, features) → decision, score and reasons, for
 * every kind of subject. No I/O: the caller loads the policy and features and acts on the
 * answer. Block wins over review, review over allow. A rule that is off, does not judge this
 * kind of subject, or lacks its inputs, abstains; a rule in monitor mode is reported in
 * `monitored` and never changes the decision. An allow-list entry the subject carries turns
 * the answer into allow (allow-list.ts), unless a live finding comes from the block lists
 * (a blocked country or email provider): those win over every entry (decision 019).
 */
import type { RuleKey } from "../../shared/schemas/rules.ts";
import { allowedBy } from "./allow-list.ts";
import { cardReuse } from "./rules/card-reuse.ts";
import { countryBlocked } from "./rules/country-blocked.ts";
import { deviceReuse } from "./rules/device-reuse.ts";
import { earlyFraudWarning } from "./rules/efw.ts";
import { email } from "./rules/email.ts";
import { entropy } from "./rules/entropy.ts";
import { farming } from "./rules/farming.ts";
import { highRisk } from "./rules/high-risk.ts";
import { oneTrial } from "./rules/one-trial.ts";
import { promoAbuse } from "./rules/promo-abuse.ts";
import { promoVelocity } from "./rules/promo-velocity.ts";
import { referrerMismatch } from "./rules/referrer-mismatch.ts";
import { scraping } from "./rules/scraping.ts";
import { signupVelocity } from "./rules/signup-velocity.ts";
import { timezoneMismatch } from "./rules/timezone-mismatch.ts";
import { type Contribution, scoreAction, scoreOf } from "./score.ts";
import { signalsOf } from "./signals.ts";
import type { Decision, Evaluation, Features, Policy, Reason, Rule, Subject } from "./types.ts";

/**
 * Every rule's check, in the order their reasons are listed. A rule record
 * (shared/catalog/rule-records.ts) without a check here is a type error.
 */
export const CHECKS = {
  rule_efw: earlyFraudWarning,
  rule_high_risk: highRisk,
  rule_country_blocked: countryBlocked,
  rule_email: email,
  rule_ip: oneTrial,
  rule_promo_abuse: promoAbuse,
  rule_scraping: scraping,
  rule_farming: farming,
  rule_signup_velocity: signupVelocity,
  rule_promo_velocity: promoVelocity,
  rule_entropy: entropy,
  rule_timezone_mismatch: timezoneMismatch,
  rule_referrer_mismatch: referrerMismatch,
  rule_cc_reuse: cardReuse,
  rule_device_fingerprint_reuse: deviceReuse,
} satisfies Record<RuleKey, Rule>;

export const RULES: readonly Rule[] = Object.values(CHECKS);

/**
 * Whether a rule runs for this subject. Charges follow the merchant's own rule flags only
 * (Warden refunds money on them); screened events also follow the templates.
 */
function isOn(rule: Rule, subject: Subject, policy: Policy): boolean {
  if (!rule.appliesTo.includes(subject.kind)) return false;
  return subject.kind === "charge" ? policy.rules[rule.key] : policy.enabled[rule.key];
}

export function evaluate(subject: Subject, policy: Policy, features: Features): Evaluation {
  const reasons: Reason[] = [];
  const monitored: Reason[] = [];
  for (const rule of RULES) {
    if (!isOn(rule, subject, policy)) continue;
    const finding = rule.check(subject, policy, features);
    if (!finding) continue;
    const setting = policy.settings[rule.key];
    const { review, ...rest } = finding;
    const reason: Reason = {
      rule: rule.key,
      action: review ? "review" : setting.action,
      ...rest,
    };
    (setting.mode === "monitor" ? monitored : reasons).push(reason);
  }
  let score = subject.kind === "charge" ? subject.riskScore : null;
  let contributions: Contribution[] | undefined;
  if (subject.kind === "event" && policy.score) {
    const threshold = policy.score.thresholds[subject.type];
    const scored = scoreOf(
      subject.type,
      signalsOf(subject, policy, features),
      policy.score.weights,
      threshold,
    );
    score = scored.score;
    contributions = scored.contributions;
    const action = scoreAction(scored.score, threshold, scored.families.length);
    if (action && threshold) {
      // Held: the score reached block on fewer than two families and reviews (score.ts).
      const limit = (
        action === "block" || scored.held ? threshold.block : threshold.review
      ) as number;
      const evidence =
        scored.families.length === 1 ? `one family only (${scored.families[0]})` : "no family";
      reasons.push({
        rule: "risk_score",
        action,
        message: scored.held
          ? `risk score reached the block threshold ${limit} for a ${subject.type} (${topSignals(contributions)}); held at review (${scored.score}): evidence from ${evidence}, a block needs two`
          : `risk score ${scored.score} is at or above the ${action} threshold ${limit} for a ${subject.type} (${topSignals(contributions)})`,
        observed: scored.score,
        limit,
      });
    }
  }
  // An allow-list entry beats every rule but the block lists (checked inside).
  const allowed = reasons.length > 0 ? allowedBy(subject, policy, features, reasons) : null;
  if (allowed) {
    return {
      decision: "allow",
      score,
      ...(contributions ? { contributions } : {}),
      reasons: [],
      monitored: [...reasons, ...monitored],
      allowed,
    };
  }
  return {
    decision: decisionOf(reasons),
    score,
    ...(contributions ? { contributions } : {}),
    reasons,
    monitored,
  };
}

/** "+22 linked to 6 accounts…, +18 account 3 min old": the three largest additions. */
function topSignals(contributions: readonly Contribution[]): string {
  return contributions
    .filter((c) => c.value !== undefined && c.points > 0)
    .slice(0, 3)
    .map((c) => `+${c.points} ${c.detail}`)
    .join(", ");
}

/** Block if any reason blocks, else review if any reviews, else allow. */
export function decisionOf(reasons: readonly Pick<Reason, "action">[]): Decision {
  if (reasons.some((reason) => reason.action === "block")) return "block";
  if (reasons.length > 0) return "review";
  return "allow";
}
