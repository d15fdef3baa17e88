/**
 * Rule settings: for each rule, its action (block or review), its mode (live, or monitor:
 * reported, never acting) and its parameters. GET/PUT /api/rule-settings and
 * ruleSettings.get/put, shaped { <rule_key>: { action, mode, ...parameters } }. The on/off
 * flags and the threshold stay in the rules object (spec §3). Defaults live here, once.
 */
import { z } from "zod";
import { RULE_KEYS, type RuleKey } from "./rules.ts";
import { SCREEN_TYPES } from "./screening.ts";

const count = (max: number) =>
  z
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(max, `must be at most ${max}`);
const days = count(3650);

const base = {
  action: z.enum(["block", "review"], { message: "must be block or review" }),
  mode: z.enum(["live", "monitor"], { message: "must be live or monitor" }),
};

/** Each rule's settings object: action, mode, and the parameters it reads. */
export const RULE_SETTING_SHAPES = {
  rule_high_risk: z.strictObject(base),
  rule_country_blocked: z.strictObject(base),
  rule_efw: z.strictObject(base),
  rule_email: z.strictObject({
    ...base,
    /** Where disposable domains are judged: every event, or only these types. */
    event_types: z.array(z.enum(SCREEN_TYPES)).max(SCREEN_TYPES.length).nullable(),
    /** Disposable signups allowed per hour across the account; null blocks them all. */
    disposable_signups_per_hour: count(10_000).nullable(),
    /** Signups an hour with a domain new to the merchant, from other networks; null: off. */
    new_domain_signups_per_hour: count(10_000).nullable(),
  }),
  rule_ip: z.strictObject({
    ...base,
    window_days: days,
    /** A second account's trial on one device: reviewed (a family's laptop) or blocked. */
    second_trial_on_device: z.enum(["review", "block"], { message: "must be review or block" }),
  }),
  rule_promo_abuse: z.strictObject({
    ...base,
    promo_reuse: z.boolean({ message: "must be true or false" }),
    self_referral: z.boolean({ message: "must be true or false" }),
    referrals_per_referrer_per_hour: count(100_000),
    /** The same, for a referrer first seen under a day ago. */
    referrals_per_new_referrer_per_hour: count(100_000),
  }),
  rule_scraping: z.strictObject({
    ...base,
    requests_per_minute: count(100_000),
    review_bots: z.boolean({ message: "must be true or false" }),
    review_hosting: z.boolean({ message: "must be true or false" }),
  }),
  rule_farming: z.strictObject({
    ...base,
    accounts: z.boolean({ message: "must be true or false" }),
    max_accounts: count(1000),
    window_days: days,
    refunds: z.boolean({ message: "must be true or false" }),
    refund_limit: count(1000),
    refund_window_days: days,
    /** Accounts linked (shared card, device, email, referrer, hosting IP) first seen in 1 h. */
    linked_per_hour: count(1000),
  }),
  rule_signup_velocity: z.strictObject({
    ...base,
    per_ip_per_hour: count(100_000),
    per_subnet_per_hour: count(100_000),
    /** Signups from one hosting provider's network (ASN) in 1 h, across its ranges. */
    per_network_per_hour: count(100_000),
  }),
  rule_promo_velocity: z.strictObject({
    ...base,
    per_code_per_10_minutes: count(100_000),
    per_ip_or_device_per_hour: count(100_000),
  }),
  rule_entropy: z.strictObject(base),
  rule_timezone_mismatch: z.strictObject({
    ...base,
    /** Where a mismatch is judged: every event, or only these types. */
    event_types: z.array(z.enum(SCREEN_TYPES)).max(SCREEN_TYPES.length).nullable(),
  }),
  /** Compares with the account's allowed origins (Settings → API keys; allowed-origins.ts). */
  rule_referrer_mismatch: z.strictObject(base),
  rule_cc_reuse: z.strictObject({
    ...base,
    max_users_per_card: count(1000),
    window_days: days,
    max_cards_per_hour: count(1000),
  }),
  rule_device_fingerprint_reuse: z.strictObject({
    ...base,
    max_users_per_device: count(1000),
    window_days: days,
  }),
} satisfies Record<RuleKey, z.ZodType>;

export type RuleSettingsOf = { [K in RuleKey]: z.infer<(typeof RULE_SETTING_SHAPES)[K]> };
export type RuleSetting = RuleSettingsOf[RuleKey];

export const ZRuleSettings = z.strictObject(RULE_SETTING_SHAPES);
export type RuleSettings = RuleSettingsOf;

/** PUT takes any subset of rules, each with any subset of its fields; the rest is kept. */
export const ZRuleSettingsUpdate = z.strictObject(
  Object.fromEntries(
    RULE_KEYS.map((key) => [key, RULE_SETTING_SHAPES[key].partial().optional()]),
  ) as unknown as {
    [K in RuleKey]: z.ZodOptional<ReturnType<(typeof RULE_SETTING_SHAPES)[K]["partial"]>>;
  },
);
export type RuleSettingsUpdate = { [K in RuleKey]?: Partial<RuleSettingsOf[K]> };

const live = { action: "block", mode: "live" } as const;

/** The defaults (issue: exact). */
export const DEFAULT_RULE_SETTINGS: RuleSettings = {
  // Copies, not `live` itself: mergeRuleSettings' structuredClone keeps shared objects shared,
  // so one rule's change would have changed all three.
  rule_high_risk: { ...live },
  rule_country_blocked: { ...live },
  rule_efw: { ...live },
  rule_email: {
    ...live,
    event_types: null,
    disposable_signups_per_hour: null,
    new_domain_signups_per_hour: 2,
  },
  rule_ip: { ...live, window_days: 365, second_trial_on_device: "review" },
  rule_promo_abuse: {
    ...live,
    promo_reuse: true,
    self_referral: true,
    referrals_per_referrer_per_hour: 50,
    referrals_per_new_referrer_per_hour: 3,
  },
  rule_scraping: { ...live, requests_per_minute: 120, review_bots: true, review_hosting: false },
  rule_farming: {
    ...live,
    accounts: true,
    max_accounts: 3,
    window_days: 30,
    refunds: true,
    refund_limit: 2,
    refund_window_days: 180,
    linked_per_hour: 3,
  },
  rule_signup_velocity: {
    ...live,
    per_ip_per_hour: 5,
    per_subnet_per_hour: 20,
    per_network_per_hour: 5,
  },
  rule_promo_velocity: { ...live, per_code_per_10_minutes: 30, per_ip_or_device_per_hour: 3 },
  rule_entropy: { action: "review", mode: "live" },
  rule_timezone_mismatch: { action: "review", mode: "live", event_types: null },
  rule_referrer_mismatch: { ...live },
  rule_cc_reuse: { ...live, max_users_per_card: 3, window_days: 30, max_cards_per_hour: 5 },
  rule_device_fingerprint_reuse: { ...live, max_users_per_device: 3, window_days: 30 },
};

/**
 * What the merchant stored, per rule and field, read over the defaults: unknown rules and
 * fields are dropped and a value that no longer validates falls back to its default.
 */
export function storedRuleOverrides(stored: unknown): RuleSettingsUpdate {
  const source = isRecord(stored) ? stored : {};
  const out: Record<string, Record<string, unknown>> = {};
  for (const key of RULE_KEYS) {
    const entry = source[key];
    if (!isRecord(entry)) continue;
    const shape = RULE_SETTING_SHAPES[key].shape as Record<string, z.ZodType>;
    const kept: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(entry)) {
      // Own fields only: a stored "constructor" must not find Object.prototype's.
      const schema = Object.hasOwn(shape, field) ? shape[field] : undefined;
      if (schema?.safeParse(value).success) kept[field] = value;
    }
    if (Object.keys(kept).length > 0) out[key] = kept;
  }
  return out as RuleSettingsUpdate;
}

/** Settings over the defaults, then the overrides over those (field by field). */
export function mergeRuleSettings(...layers: RuleSettingsUpdate[]): RuleSettings {
  const merged = structuredClone(DEFAULT_RULE_SETTINGS) as Record<string, Record<string, unknown>>;
  for (const layer of layers) {
    for (const [key, fields] of Object.entries(layer)) {
      if (fields) Object.assign(merged[key] as object, fields);
    }
  }
  return merged as RuleSettings;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
