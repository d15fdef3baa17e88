/** The rule catalogue: every rule key with its label and group, in display order (spec §9). */
import type { RuleKey } from "../schemas/rules.ts";

export type RuleGroup = "standard" | "development";

export const RULE_GROUPS: { id: RuleGroup; title: string }[] = [
  { id: "standard", title: "Standard Detection Rule" },
  { id: "development", title: "Under development" },
];

export type RuleEntry = { key: RuleKey; label: string; group: RuleGroup };

export const RULE_CATALOG: readonly RuleEntry[] = [
  { key: "rule_email", label: "Block disposable or low-reputation emails", group: "standard" },
  { key: "rule_efw", label: "Early Fraud Warning Detection", group: "standard" },
  { key: "rule_high_risk", label: "Too high risk level with threshold", group: "standard" },
  { key: "rule_country_blocked", label: "Country blocked", group: "standard" },
  { key: "rule_ip", label: "One trial per device/IP/email", group: "development" },
  { key: "rule_promo_abuse", label: "Promo/referral abuse", group: "development" },
  { key: "rule_scraping", label: "Scraping and throttling", group: "development" },
  { key: "rule_farming", label: "Account farming and refund flagging", group: "development" },
  { key: "rule_signup_velocity", label: "Signup velocity", group: "development" },
  { key: "rule_promo_velocity", label: "Promo code use velocity", group: "development" },
  { key: "rule_entropy", label: "Behavioral entropy score", group: "development" },
  { key: "rule_timezone_mismatch", label: "Timezone mismatch", group: "development" },
  { key: "rule_referrer_mismatch", label: "Referrer and origin mismatch", group: "development" },
  { key: "rule_cc_reuse", label: "Credit card reuse fingerprint", group: "development" },
  { key: "rule_device_fingerprint_reuse", label: "Device fingerprint reuse", group: "development" },
];
