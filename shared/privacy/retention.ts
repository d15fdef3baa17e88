/**
 * How long each kind of personal data is kept (Settings → Data retention, retention.get/put,
 * GET/PUT /api/retention): the kinds in the order the console shows them, what each holds,
 * the defaults and limits, and which rule windows a setting would cut short. Housekeeping
 * enforces the settings per account (server/modules/housekeeping). Pure data and functions.
 */
import { RULE_RECORDS } from "../catalog/rule-records.ts";
import { DEFAULT_RULE_SETTINGS, type RuleSettings } from "../schemas/rule-settings.ts";
import { RULE_KEYS } from "../schemas/rules.ts";

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
 * A window a rule looks back over one kind of data, under the merchant's settings: `loses`
 * says what stops counting, with {N} for the retention in days.
 */
export type RuleWindow = { kind: RetentionKind; rule: string; days: number; loses: string };

/**
 * Every window the rules read stored data over, under these settings, from the rule records:
 * counting identities before charges, a window the merchant sets before a fixed one, then in
 * rule order.
 */
export function ruleWindows(s: RuleSettings): RuleWindow[] {
  const windows = RULE_KEYS.flatMap((rule) =>
    Object.values(RULE_RECORDS[rule].windows).map((w) => {
      const settings = s[rule] as Record<string, unknown>;
      const days = typeof w.days === "number" ? w.days : (settings[w.days] as number);
      return { kind: w.kind, rule, days, loses: w.loses, fixed: typeof w.days === "number" };
    }),
  );
  const rank = (w: { kind: RetentionKind; fixed: boolean }) =>
    RETENTION_KINDS.indexOf(w.kind) * 2 + (w.fixed ? 1 : 0);
  return windows.sort((a, b) => rank(a) - rank(b)).map(({ fixed: _, ...w }) => w);
}

/**
 * The longest any rule looks back over counting identities under the default settings (promo
 * reuse and a referrer's age, 400 days), and housekeeping's LONGEST_WINDOW_DAYS.
 */
export const LONGEST_RULE_WINDOW_DAYS = Math.max(
  ...ruleWindows(DEFAULT_RULE_SETTINGS)
    .filter((w) => w.kind === "identities")
    .map((w) => w.days),
);

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
    label: "Browser signals from warden.js",
    holds:
      "What warden.js collected in a visitor's browser (signals, the address it came from), kept until a screening uses it; it expires 10 minutes after it was collected. Deleted this many days after it expired.",
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
    why: `The longest window a rule looks back (${LONGEST_RULE_WINDOW_DAYS} days: promo reuse and a referrer's age; one trial per email or card over ${DEFAULT_RULE_SETTINGS.rule_ip.window_days}) and no longer; digests cannot be read back.`,
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
