/**
 * One record per rule (issue 43): its key, label, group, default action, settings (schema,
 * default, label) and the windows of stored data it looks back over. RULE_KEYS, the catalogue
 * (rules.ts), the settings schema and defaults (schemas/rule-settings.ts) and retention's rule
 * windows (privacy/retention.ts) are read from here; the engine's checks are in
 * server/engine/rules/ and read their windows from here too. In RULE_KEYS order (the order the
 * rules object and its settings list them); the Rules page's order is RULE_DISPLAY_ORDER.
 */
import { z } from "zod";
import { SCREEN_TYPES } from "../schemas/screen-types.ts";
import { count, days, field, flag, rule } from "./rule-record.ts";

/** How far back linked accounts are found (server/engine/links.ts). */
export const LINK_WINDOW_DAYS = 30;
/** How far back promo reuse, a referrer's shares and a referrer's age are read. */
export const PROMO_WINDOW_DAYS = 400;

const eventTypes = field(
  z.array(z.enum(SCREEN_TYPES)).max(SCREEN_TYPES.length).nullable(),
  null,
  "Judge only at",
);
const windowDays = (value: number) => field(days, value, "Window (days)");

export const RULE_RECORDS = {
  rule_high_risk: rule({
    label: "Too high risk level with threshold",
    group: "standard",
    action: "block",
    fields: {},
    windows: {},
  }),
  rule_country_blocked: rule({
    label: "Country blocked",
    group: "standard",
    action: "block",
    fields: {},
    windows: {},
  }),
  rule_efw: rule({
    label: "Early Fraud Warning Detection",
    group: "standard",
    action: "block",
    fields: {},
    windows: {},
  }),
  rule_ip: rule({
    label: "One trial per device/IP/email",
    group: "advanced",
    action: "block",
    fields: {
      window_days: windowDays(365),
      /** A second account's trial on one device: reviewed (a family's laptop) or blocked. */
      second_trial_on_device: field(
        z.enum(["review", "block"], { message: "must be review or block" }),
        "review",
        "Second account's trial on a device",
        [
          ["review", "Review"],
          ["block", "Block"],
        ],
      ),
    },
    windows: {
      trials: {
        kind: "identities",
        days: "window_days",
        loses:
          "a trial started with the same email, card or device more than {N} days ago will not count",
      },
    },
  }),
  rule_email: rule({
    label: "Block disposable or low-reputation emails",
    group: "standard",
    action: "block",
    fields: {
      /** Where disposable domains are judged: every event, or only these types. */
      event_types: eventTypes,
      /** Disposable signups allowed per hour across the account; null blocks them all. */
      disposable_signups_per_hour: field(
        count(10_000).nullable(),
        null,
        "Disposable signups allowed per hour",
      ),
      /** Signups an hour with a domain new to the merchant, from other networks; null: off. */
      new_domain_signups_per_hour: field(
        count(10_000).nullable(),
        2,
        "Signups per hour with a domain new to this site, from other networks",
      ),
    },
    windows: {},
  }),
  rule_promo_abuse: rule({
    label: "Promo/referral abuse",
    group: "advanced",
    action: "block",
    fields: {
      promo_reuse: field(flag, true, "Block a promo code reused by the same person"),
      self_referral: field(flag, true, "Block self-referrals"),
      referrals_per_referrer_per_hour: field(
        count(100_000),
        50,
        "Referrals naming one referrer per hour",
      ),
      /** The same, for a referrer first seen under a day ago. */
      referrals_per_new_referrer_per_hour: field(
        count(100_000),
        3,
        "Referrals per hour for a referrer under a day old",
      ),
    },
    windows: {
      promos: {
        kind: "identities",
        days: PROMO_WINDOW_DAYS,
        loses:
          "a promo code redeemed by the same email, device or card more than {N} days ago will not count, and a referrer seen only before then looks new",
      },
    },
  }),
  rule_scraping: rule({
    label: "Scraping and throttling",
    group: "advanced",
    action: "block",
    fields: {
      requests_per_minute: field(count(100_000), 120, "Requests per minute from one IP or device"),
      review_bots: field(flag, true, "Review bots and missing user agents"),
      review_hosting: field(flag, false, "Review IPs of hosting providers"),
    },
    windows: {},
  }),
  rule_farming: rule({
    label: "Account farming and refund flagging",
    group: "advanced",
    action: "block",
    fields: {
      accounts: field(flag, true, "Block a device or card behind too many accounts"),
      max_accounts: field(count(1000), 3, "Accounts per device or card"),
      window_days: windowDays(30),
      refunds: field(flag, true, "Review checkouts after refunds or disputes"),
      refund_limit: field(count(1000), 2, "Refunds that trigger a review"),
      refund_window_days: field(days, 180, "Refund window (days)"),
      /** Accounts linked (shared card, device, email, referrer, hosting IP) first seen in 1 h. */
      linked_per_hour: field(
        count(1000),
        3,
        "Linked accounts (card, device, email, referrer) new in the last hour",
      ),
    },
    windows: {
      accounts: {
        kind: "identities",
        days: "window_days",
        loses: "accounts signed up on one device or card more than {N} days ago will not count",
      },
      links: {
        kind: "identities",
        days: LINK_WINDOW_DAYS,
        loses:
          "accounts linked by a shared device, card, email or network more than {N} days ago will not count",
      },
      refunds: {
        kind: "charges_personal",
        days: "refund_window_days",
        loses:
          "refunds and disputes on charges older than {N} days will no longer be found by the email or card",
      },
    },
  }),
  rule_signup_velocity: rule({
    label: "Signup velocity",
    group: "advanced",
    action: "block",
    fields: {
      per_ip_per_hour: field(count(100_000), 5, "Signups per IP per hour"),
      per_subnet_per_hour: field(count(100_000), 20, "Signups per /24 network per hour"),
      /** Signups from one hosting provider's network (ASN) in 1 h, across its ranges. */
      per_network_per_hour: field(count(100_000), 5, "Signups per hosting network (ASN) per hour"),
    },
    windows: {},
  }),
  rule_promo_velocity: rule({
    label: "Promo code use velocity",
    group: "advanced",
    action: "block",
    fields: {
      per_code_per_10_minutes: field(count(100_000), 30, "Redemptions per code per 10 minutes"),
      per_ip_or_device_per_hour: field(count(100_000), 3, "Redemptions per IP or device per hour"),
    },
    windows: {},
  }),
  rule_entropy: rule({
    label: "Behavioral entropy score",
    group: "advanced",
    action: "review",
    fields: {},
    windows: {},
  }),
  rule_timezone_mismatch: rule({
    label: "Timezone mismatch",
    group: "advanced",
    action: "review",
    /** Where a mismatch is judged: every event, or only these types. */
    fields: { event_types: eventTypes },
    windows: {},
  }),
  /** Compares with the account's allowed origins (Settings → API keys; allowed-origins.ts). */
  rule_referrer_mismatch: rule({
    label: "Referrer and origin mismatch",
    group: "advanced",
    action: "block",
    fields: {},
    windows: {},
  }),
  rule_cc_reuse: rule({
    label: "Credit card reuse fingerprint",
    group: "advanced",
    action: "block",
    fields: {
      max_users_per_card: field(count(1000), 3, "Users per card"),
      window_days: windowDays(30),
      max_cards_per_hour: field(count(1000), 5, "Cards per person per hour"),
    },
    windows: {
      users: {
        kind: "identities",
        days: "window_days",
        loses: "users who used the same card more than {N} days ago will not count",
      },
      charges: {
        kind: "charges_personal",
        days: "window_days",
        loses: "other emails on the same card in charges older than {N} days will not count",
      },
    },
  }),
  rule_device_fingerprint_reuse: rule({
    label: "Device fingerprint reuse",
    group: "advanced",
    action: "block",
    fields: {
      max_users_per_device: field(count(1000), 3, "Users per device"),
      window_days: windowDays(30),
    },
    windows: {
      users: {
        kind: "identities",
        days: "window_days",
        loses: "users on the same device more than {N} days ago will not count",
      },
    },
  }),
};

export type RuleKey = keyof typeof RULE_RECORDS;

/** The Rules page's order (spec §9): the standard rules first. Every key once (a type error if not). */
export const RULE_DISPLAY_ORDER = [
  "rule_email",
  "rule_efw",
  "rule_high_risk",
  "rule_country_blocked",
  "rule_ip",
  "rule_promo_abuse",
  "rule_scraping",
  "rule_farming",
  "rule_signup_velocity",
  "rule_promo_velocity",
  "rule_entropy",
  "rule_timezone_mismatch",
  "rule_referrer_mismatch",
  "rule_cc_reuse",
  "rule_device_fingerprint_reuse",
] as const satisfies readonly RuleKey[];
type Unshown = Exclude<RuleKey, (typeof RULE_DISPLAY_ORDER)[number]>;
const everyRuleShown: [Unshown] extends [never] ? true : Unshown = true;
void everyRuleShown;
