/**
 * The template catalogue (spec §3), in display order. A template is a preset: turned on, it
 * turns on its rules with its values. The merchant's own rule settings win over a preset.
 */

import type { RuleSettingsUpdate } from "../schemas/rule-settings.ts";
import type { RuleKey } from "../schemas/rules.ts";
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
};

export const TEMPLATE_CATALOG: readonly TemplateEntry[] = [
  {
    key: "template_one_human_one_trial",
    label: "One Human One Trial",
    description:
      "One trial per device and per email (an IP alone never blocks: offices and carriers share them); a device shared by several accounts; disposable emails blocked at trial start.",
    rules: ["rule_ip", "rule_device_fingerprint_reuse", "rule_email"],
    settings: { rule_email: { event_types: ["trial_start"] } },
  },
  {
    key: "template_fake_viral_growth_prevention",
    label: "Fake Viral Growth Prevention",
    description:
      "Self-referrals blocked, signup bursts from one device or hosting network blocked, signups from other sites blocked.",
    rules: ["rule_promo_abuse", "rule_signup_velocity", "rule_referrer_mismatch"],
    settings: { rule_promo_abuse: { promo_reuse: false, self_referral: true } },
  },
  {
    key: "template_refund_abuser_flag",
    label: "Refund Abuser Flag",
    description:
      "Checkouts reviewed when the email or card had 2 refunds, or a dispute, in 180 days.",
    rules: ["rule_farming"],
    settings: { rule_farming: { accounts: false, refunds: true } },
  },
  {
    key: "template_account_farm_shield",
    label: "Account Farm Shield",
    description:
      "A device or card behind 3 accounts, a device shared by several users, signup bursts from one device: blocked.",
    rules: ["rule_farming", "rule_device_fingerprint_reuse", "rule_signup_velocity"],
    settings: {},
  },
  {
    key: "template_stealth_scraper_deterrent",
    label: "Stealth Scraper Deterrent",
    description:
      "More than 60 requests a minute from one IP or device blocked; bots and hosting providers' IPs reviewed.",
    rules: ["rule_scraping"],
    settings: {
      rule_scraping: { requests_per_minute: 60, review_bots: true, review_hosting: true },
    },
  },
  {
    key: "template_disposable_email_throttle",
    label: "Disposable Email Throttle",
    description:
      "At most 3 signups an hour from disposable email domains, instead of blocking them all.",
    rules: ["rule_email"],
    settings: { rule_email: { disposable_signups_per_hour: 3, event_types: ["signup"] } },
  },
];
