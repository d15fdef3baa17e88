/**
 * The engine's vocabulary: what it judges (a subject), with what (a policy and features), and
 * what it answers (a decision with reasons). Plain data only, so every rule is a pure function.
 */
import type { AllowKind } from "../../shared/schemas/allow-list.ts";
import type { Blocklist } from "../../shared/schemas/blocklist.ts";
import type { RuleSettings } from "../../shared/schemas/rule-settings.ts";
import type { RuleKey, Rules } from "../../shared/schemas/rules.ts";
import type { ScreenType } from "../../shared/schemas/screening.ts";
import type { Templates } from "../../shared/schemas/templates.ts";

/** A Stripe charge as the rules see it (the caller derives it from the stored charge). */
export type ChargeSubject = {
  kind: "charge";
  email: string | null;
  riskScore: number | null;
  cardCountry: string | null;
  billingCountry: string | null;
  cardFingerprint?: string | null;
  earlyFraudWarning: { actionable: boolean; fraudType: string | null } | null;
};

/** An event a merchant's backend asks about before letting it happen (screening). */
export type EventSubject = {
  kind: "event";
  type: ScreenType;
  userId: string | null;
  email: string | null;
  ip: string | null;
  userAgent: string | null;
  deviceId: string | null;
  /**
   * The device id came from the browser (warden.js), not the merchant's backend: the end
   * user can send any value, so an allow-list device entry never matches it (decision 019).
   */
  deviceFromBrowser?: boolean;
  timezone: string | null;
  origin: string | null;
  referrer: string | null;
  url: string | null;
  promoCode: string | null;
  referralCode: string | null;
  referrerUserId: string | null;
  cardFingerprint: string | null;
  /** What the browser collector saw (warden.js), when the screening came with its token. */
  browser?: BrowserSignals | null;
};

/** From the browser collector: automation, and how the watched form was filled (if one was). */
export type BrowserSignals = {
  webdriver: boolean;
  behavior: {
    timeToSubmitMs: number | null;
    pointerEvents: number;
    keyEvents: number;
    keyIntervalSdMs: number | null;
    pasteCount: number;
  } | null;
};

/** Every kind of thing Warden judges. */
export type Subject = ChargeSubject | EventSubject;
export type SubjectKind = Subject["kind"];

/** Everything the merchant set that the rules read, with templates already applied. */
export type Policy = {
  rules: Rules;
  templates: Templates;
  blocklist: Blocklist;
  /** Whether each rule runs: its own flag, or a template that turns it on. */
  enabled: Record<RuleKey, boolean>;
  /** Each rule's action, mode and parameters: defaults, then templates, then the merchant's. */
  settings: RuleSettings;
  /** Allow-list entries in force (none when absent). */
  allowList?: readonly AllowListEntry[];
  /**
   * The merchant's own sites (Settings → API keys): the collector answers only these, and
   * rule_referrer_mismatch compares with them (none when absent: the rule abstains).
   */
  allowedOrigins?: readonly string[];
};

/** A value the merchant trusts, as the policy carries it. */
export type AllowListEntry = {
  kind: AllowKind;
  /** Emails and domains lowercase; ip_cidr an address or a CIDR range. */
  value: string;
  addedBy: string;
  /** ISO 8601. */
  addedAt: string;
  expiresAt: string | null;
};

/**
 * The allow-list entry that decided an event, with the sentence the merchant sees, and the
 * live rules it overrode (they are in `monitored`, as would-have).
 */
export type Allowed = {
  kind: AllowKind;
  value: string;
  addedBy: string;
  /** ISO 8601. */
  addedAt: string;
  message: string;
  rules: RuleKey[];
};

/** How often an identity was seen before this event, over the windows the policy names. */
export type Counts = {
  /**
   * Other accounts with an earlier trial (not blocked) from this device and normalized email
   * (the same user id again is a retry, not counted). `ip` is no longer asked (always 0).
   */
  priorTrials: { device: number; ip: number; email: number };
  /** Earlier redemptions (not blocked) of this promo code by this email, device, card. */
  promoRedeemedBy: { email: number; device: number; card: number };
  /** Events of the referrer that share this event's device, IP, card or email. */
  referrerShares: { device: number; ip: number; card: number; email: number };
  /** `request` events in the last minute from this IP and this device. */
  requestsLastMinute: { ip: number; device: number };
  /** Other accounts (user id or email) seen on this device and this card in the window. */
  accountsOn: { device: number; card: number };
  /** Signups in the last hour from this IP, its /24 (IPv6 /48) and this device. */
  signupsLastHour: { ip: number; subnet: number; device: number };
  promo: { codeLast10Minutes: number; ipLastHour: number; deviceLastHour: number };
  /** Other users or emails that used this card, and this device, in the window. */
  usersOn: { card: number; device: number };
  /** Other cards tried in the last hour by this user, email, IP and device. */
  cardsLastHour: { user: number; email: number; ip: number; device: number };
  /** Signups with a disposable email in the last hour, across the account. */
  disposableSignupsLastHour: number;
};

/** Refunds and disputes in Warden's Stripe records for this email or card. */
export type StripeHistory = { refunds: number; disputes: number };

/** Facts about the world the rules need, loaded by the caller (no I/O in the engine). */
export type Features = {
  /** Known disposable email domains, lowercase. */
  disposableDomains: ReadonlySet<string>;
  /** The email as identities are compared (gmail dots and +tags removed, lowercase). */
  normalizedEmail?: string | null;
  geo?: { country: string | null; asn: number | null; hosting: boolean } | null;
  /** Whether the browser's timezone is one of the IP country's; null when unknown. */
  timezoneFitsCountry?: boolean | null;
  bot?: boolean;
  emailRandomness?: { score: number; random: boolean } | null;
  counts?: Counts;
  stripeHistory?: StripeHistory | null;
};

export type RuleAction = "block" | "review";
export type Decision = "allow" | "review" | "block";

/** Why a rule fired: its action, a sentence for the merchant, and the value against the limit. */
export type Reason = {
  rule: RuleKey;
  action: RuleAction;
  message: string;
  observed: string | number | null;
  limit: string | number | null;
};

/**
 * What one rule found. `review: true` marks a softer finding that is only ever reviewed
 * (a bot user agent, a refund history), whatever the rule's action.
 */
export type Finding = Omit<Reason, "rule" | "action"> & { review?: boolean };

export type Evaluation = {
  decision: Decision;
  /** Radar's score for a charge; for an event, 0–100 from what fired. */
  score: number | null;
  reasons: Reason[];
  /** Rules in monitor mode that would have fired. They never change the decision. */
  monitored: Reason[];
  /**
   * Set when an allow-list entry decided: the decision is allow, and what the live rules
   * found moves to `monitored` (they would have fired).
   */
  allowed?: Allowed;
};

/** One rule: which subjects it judges and a pure check. */
export type Rule = {
  key: RuleKey;
  appliesTo: readonly SubjectKind[];
  check(subject: Subject, policy: Policy, features: Features): Finding | null;
};
