/**
 * The template catalogue (spec §3), in display order. A template is a preset: turned on, it
 * turns on its rules with its values. The merchant's own rule settings win over a preset.
 */

import type { RuleSettingsUpdate } from "../schemas/rule-settings.ts";
import type { RuleKey } from "../schemas/rules.ts";
import type { ScreenType } from "../schemas/screening.ts";
import type { TemplateKey } from "../schemas/templates.ts";

export type TemplateEntry = {
  key: TemplateKey;
  label: string;
  /** One line for the Templates page. */
  description: string;
  /** The rules it turns on. */
  rules: readonly RuleKey[];
  /** The values it sets on them (under the merchant's own settings). */
  settings: RuleSettingsUpdate;
  /**
   * The event types whose risk score it judges: turned on, a score at or above the shipped
   * review or block threshold for the type is reviewed or blocked (the merchant's own
   * thresholds win).
   */
  scoreTypes: readonly ScreenType[];
};

export const TEMPLATE_CATALOG: readonly TemplateEntry[] = [
  {
    key: "template_one_human_one_trial",
    label: "One Human One Trial",
    description:
      "One trial per email and per card; a second account's trial on a device reviewed (blocked if you choose so in the rule's settings), the third blocked (an IP alone never blocks: offices and carriers share them); accounts linked through a card, device or email in the last hour; disposable emails blocked at trial start; a browser's time zone foreign to its address reviewed at trial start.",
    rules: [
      "rule_ip",
      "rule_device_fingerprint_reuse",
      "rule_email",
      "rule_farming",
      "rule_timezone_mismatch",
    ],
    settings: {
      rule_email: { event_types: ["trial_start"] },
      rule_farming: { accounts: true, refunds: false },
      rule_timezone_mismatch: { event_types: ["trial_start"] },
    },
    scoreTypes: ["signup", "trial_start"],
  },
  {
    key: "template_fake_viral_growth_prevention",
    label: "Fake Viral Growth Prevention",
    description:
      "Self-referrals blocked; more than 2 referrals an hour naming a referrer under 7 days old (50 for older ones) blocked; accounts linked through a device, card or referrer in the last hour blocked; signup bursts from one device or hosting network blocked; signups from other sites blocked.",
    rules: ["rule_promo_abuse", "rule_signup_velocity", "rule_referrer_mismatch", "rule_farming"],
    settings: {
      rule_promo_abuse: {
        promo_reuse: false,
        self_referral: true,
        referrals_per_new_referrer_per_hour: 2,
      },
      rule_farming: { accounts: true, refunds: false },
    },
    scoreTypes: ["signup", "referral"],
  },
  {
    key: "template_refund_abuser_flag",
    label: "Refund Abuser Flag",
    description:
      "Checkouts reviewed when the email or card had 2 refunds, or a dispute, in 180 days.",
    rules: ["rule_farming"],
    settings: { rule_farming: { accounts: false, refunds: true } },
    scoreTypes: ["checkout"],
  },
  {
    key: "template_account_farm_shield",
    label: "Account Farm Shield",
    description:
      "A device or card behind 3 accounts, an account linked to 3 others new in the last hour (through a device, card, email, referrer or hosting IP), a device shared by several users, signup bursts from one device or hosting network: blocked.",
    rules: ["rule_farming", "rule_device_fingerprint_reuse", "rule_signup_velocity"],
    settings: { rule_farming: { accounts: true } },
    scoreTypes: ["signup"],
  },
  {
    key: "template_stealth_scraper_deterrent",
    label: "Stealth Scraper Deterrent",
    description:
      "More than 60 requests a minute from one IP or device blocked; more than 10 a minute from one browser, bots, hosting providers' IPs and forms typed at a machine's even pace reviewed.",
    rules: ["rule_scraping", "rule_entropy"],
    settings: {
      rule_scraping: { requests_per_minute: 60, review_bots: true, review_hosting: true },
    },
    scoreTypes: ["signup", "request"],
  },
  {
    key: "template_disposable_email_throttle",
    label: "Disposable Email Throttle",
    description:
      "At most 3 signups an hour from disposable email domains, instead of blocking them all.",
    rules: ["rule_email"],
    settings: { rule_email: { disposable_signups_per_hour: 3, event_types: ["signup"] } },
    scoreTypes: ["signup"],
  },
];
