/**
 * How long each kind of personal data is kept (Settings → Data retention, retention.get/put,
 * GET/PUT /api/retention): the kinds in the order the console shows them, what each holds,
 * the defaults and limits, and which rule windows a setting would cut short. Housekeeping
 * enforces the settings per account (server/modules/housekeeping). Pure data and functions.
 */
import type { RuleSettings } from "../schemas/rule-settings.ts";

export const RETENTION_KINDS = [
  "screenings",
  "collector_tokens",
  "identities",
  "webhook_deliveries",
  "audit_log",
  "charges_personal",
] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

export type RetentionKindInfo = {
  label: string;
  /** What it holds and what happens to it, one sentence for the console. */
  holds: string;
  /** The default in days (screenings and webhook deliveries: the instance's settings). */
  default_days: number;
  min: number;
  max: number;
  /** Why the default, in one line: what a careful lawyer would ask. */
  why: string;
};

/** The upper limit of every kind but the audit log: ten years. */
export const RETENTION_MAX_DAYS = 3650;

/**
 * The longest any rule looks back under the default settings (promo reuse and a referrer's
 * age, 400 days; server/engine/rules/promo-abuse.ts), and housekeeping's LONGEST_WINDOW_DAYS.
 */
export const LONGEST_RULE_WINDOW_DAYS = 400;

/** The longest card-network dispute window: a chargeback may arrive up to 540 days later. */
export const DISPUTE_WINDOW_DAYS = 540;

export const RETENTION: Record<RetentionKind, RetentionKindInfo> = {
  screenings: {
    label: "Screenings",
    holds:
      "Each screened event as sent: email, IP address, user id, device id, browser signals, the decision and its reasons. Deleted this many days after it was screened, with its labels' notes; allow-list entries that ended this long ago go too.",
    default_days: 90,
    min: 1,
    max: RETENTION_MAX_DAYS,
    why: "A quarter covers reviewing, labelling and backtesting an event; counting needs only the keyed digests, which are kept apart.",
  },
  collector_tokens: {
    label: "Collector tokens and signals",
    holds:
      "What warden.js collected in a visitor's browser (signals, the address it came from), kept until a screening uses it. Deleted this many days after the token expired.",
    default_days: 1,
    min: 1,
    max: RETENTION_MAX_DAYS,
    why: "A token lives minutes and is used once; a day past its expiry covers a late retry and nothing more.",
  },
  identities: {
    label: "Counting identities",
    holds:
      "Keyed digests of emails, IPs, devices, cards and user ids (never the values themselves), so the rules can count what they saw before. Deleted this many days after the event.",
    default_days: LONGEST_RULE_WINDOW_DAYS,
    min: 1,
    max: RETENTION_MAX_DAYS,
    why: "The longest window a rule looks back (400 days: promo reuse and a referrer's age; one trial per email or card over 365) and no longer; digests cannot be read back.",
  },
  webhook_deliveries: {
    label: "Webhook deliveries",
    holds:
      "Decision webhooks sent to your endpoints, with their body (a screening's user id and reasons, a charge review's email, a label's note) and each attempt. Deleted this many days after the last attempt once delivered or given up on.",
    default_days: 30,
    min: 1,
    max: RETENTION_MAX_DAYS,
    why: "A month to see a failed delivery and send it again; your own systems keep what they received.",
  },
  audit_log: {
    label: "Audit log",
    holds:
      "Who changed what in this account, from which IP, with the values before and after. Deleted this many days after the change.",
    default_days: 365,
    // The audit log's own limits (shared/schemas/team.ts, security.put).
    min: 30,
    max: 2555,
    why: "A year spans a yearly security review (SOC 2, ISO 27001) and the questions after an incident.",
  },
  charges_personal: {
    label: "Charges' personal fields",
    holds:
      "A Stripe charge's email, card fingerprint and review note, and its labels' notes. Cleared this many days after the charge was created; its amounts, outcome and decision stay.",
    default_days: DISPUTE_WINDOW_DAYS,
    min: 1,
    max: RETENTION_MAX_DAYS,
    why: "The longest card-network dispute window (540 days): a dispute may still arrive and be matched by its card or email until then.",
  },
};

/**
 * A window a rule looks back over one kind of data, under the merchant's settings: `loses`
 * says what stops counting, with {N} for the retention in days.
 */
export type RuleWindow = { kind: RetentionKind; rule: string; days: number; loses: string };

/** Every window the rules read stored data over, under these settings. */
export function ruleWindows(s: RuleSettings): RuleWindow[] {
  const identities = (rule: string, days: number, loses: string): RuleWindow => ({
    kind: "identities",
    rule,
    days,
    loses,
  });
  return [
    identities(
      "rule_ip",
      s.rule_ip.window_days,
      "a trial started with the same email, card or device more than {N} days ago will not count",
    ),
    identities(
      "rule_farming",
      s.rule_farming.window_days,
      "accounts signed up on one device or card more than {N} days ago will not count",
    ),
    identities(
      "rule_cc_reuse",
      s.rule_cc_reuse.window_days,
      "users who used the same card more than {N} days ago will not count",
    ),
    identities(
      "rule_device_fingerprint_reuse",
      s.rule_device_fingerprint_reuse.window_days,
      "users on the same device more than {N} days ago will not count",
    ),
    // Fixed in the engine (promo-abuse.ts LONGEST, links.ts referrerCounts).
    identities(
      "rule_promo_abuse",
      LONGEST_RULE_WINDOW_DAYS,
      "a promo code redeemed by the same email, device or card more than {N} days ago will not count, and a referrer seen only before then looks new",
    ),
    // Fixed in the engine (links.ts LINK_WINDOW).
    identities(
      "rule_farming",
      30,
      "accounts linked by a shared device, card, email or network more than {N} days ago will not count",
    ),
    {
      kind: "charges_personal",
      rule: "rule_farming",
      days: s.rule_farming.refund_window_days,
      loses:
        "refunds and disputes on charges older than {N} days will no longer be found by the email or card",
    },
    {
      kind: "charges_personal",
      rule: "rule_cc_reuse",
      days: s.rule_cc_reuse.window_days,
      loses: "other emails on the same card in charges older than {N} days will not count",
    },
  ];
}

/**
 * What keeping `kind` for `days` breaks, one sentence each (empty: nothing): every rule
 * window over that data longer than it, and for charges the dispute window.
 */
export function retentionBreaks(
  kind: RetentionKind,
  days: number,
  windows: RuleWindow[],
): string[] {
  const out: string[] = [];
  for (const w of windows) {
    if (w.kind !== kind || days >= w.days) continue;
    out.push(`${w.rule} looks back ${w.days} days: ${w.loses.replaceAll("{N}", String(days))}.`);
  }
  if (kind === "charges_personal" && days < DISPUTE_WINDOW_DAYS) {
    out.push(
      `A dispute can arrive up to ${DISPUTE_WINDOW_DAYS} days after a charge: one older than ${days} days will no longer show the charge's email or card.`,
    );
  }
  return [...new Set(out)];
}

/** The limit message for a kind, as the form and the server both say it. */
export function retentionRangeMessage(kind: RetentionKind): string {
  const { min, max } = RETENTION[kind];
  return `must be from ${min} to ${max} days`;
}
