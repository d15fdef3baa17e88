/**
 * The rule catalogue: every rule key with its label and group, in display order (spec §9),
 * and the names people read for each rule setting.
 */
import type { RuleKey } from "../schemas/rules.ts";

export type RuleGroup = "standard" | "advanced";

export const RULE_GROUPS: { id: RuleGroup; title: string }[] = [
  { id: "standard", title: "Standard Detection Rule" },
  { id: "advanced", title: "Advanced Detection Rules" },
];

export type RuleEntry = { key: RuleKey; label: string; group: RuleGroup };

export const RULE_CATALOG: readonly RuleEntry[] = [
  { key: "rule_email", label: "Block disposable or low-reputation emails", group: "standard" },
  { key: "rule_efw", label: "Early Fraud Warning Detection", group: "standard" },
  { key: "rule_high_risk", label: "Too high risk level with threshold", group: "standard" },
  { key: "rule_country_blocked", label: "Country blocked", group: "standard" },
  { key: "rule_ip", label: "One trial per device/IP/email", group: "advanced" },
  { key: "rule_promo_abuse", label: "Promo/referral abuse", group: "advanced" },
  { key: "rule_scraping", label: "Scraping and throttling", group: "advanced" },
  { key: "rule_farming", label: "Account farming and refund flagging", group: "advanced" },
  { key: "rule_signup_velocity", label: "Signup velocity", group: "advanced" },
  { key: "rule_promo_velocity", label: "Promo code use velocity", group: "advanced" },
  { key: "rule_entropy", label: "Behavioral entropy score", group: "advanced" },
  { key: "rule_timezone_mismatch", label: "Timezone mismatch", group: "advanced" },
  { key: "rule_referrer_mismatch", label: "Referrer and origin mismatch", group: "advanced" },
  { key: "rule_cc_reuse", label: "Credit card reuse fingerprint", group: "advanced" },
  { key: "rule_device_fingerprint_reuse", label: "Device fingerprint reuse", group: "advanced" },
];

/** What a person reads for each rule setting (action, mode and every parameter). */
export const SETTING_LABELS: Record<string, string> = {
  action: "Action",
  mode: "Mode",
  event_types: "Judge only at",
  disposable_signups_per_hour: "Disposable signups allowed per hour",
  new_domain_signups_per_hour:
    "Signups per hour with a domain new to this site, from other networks",
  window_days: "Window (days)",
  second_trial_on_device: "Second account's trial on a device",
  promo_reuse: "Block a promo code reused by the same person",
  self_referral: "Block self-referrals",
  requests_per_minute: "Requests per minute from one IP or device",
  review_bots: "Review bots and missing user agents",
  review_hosting: "Review IPs of hosting providers",
  accounts: "Block a device or card behind too many accounts",
  max_accounts: "Accounts per device or card",
  refunds: "Review checkouts after refunds or disputes",
  refund_limit: "Refunds that trigger a review",
  refund_window_days: "Refund window (days)",
  per_ip_per_hour: "Signups per IP per hour",
  per_subnet_per_hour: "Signups per /24 network per hour",
  per_network_per_hour: "Signups per hosting network (ASN) per hour",
  linked_per_hour: "Linked accounts (card, device, email, referrer) new in the last hour",
  referrals_per_referrer_per_hour: "Referrals naming one referrer per hour",
  referrals_per_new_referrer_per_hour: "Referrals per hour for a referrer under a day old",
  per_code_per_10_minutes: "Redemptions per code per 10 minutes",
  per_ip_or_device_per_hour: "Redemptions per IP or device per hour",
  max_users_per_card: "Users per card",
  max_cards_per_hour: "Cards per person per hour",
  max_users_per_device: "Users per device",
};

/** Settings chosen from a few values: each value and what a person reads for it, in order. */
export const SETTING_CHOICES: Record<string, readonly (readonly [string, string])[]> = {
  action: [
    ["block", "Block"],
    ["review", "Review"],
  ],
  mode: [
    ["live", "Live"],
    ["monitor", "Monitor (report only)"],
  ],
  second_trial_on_device: [
    ["review", "Review"],
    ["block", "Block"],
  ],
};
