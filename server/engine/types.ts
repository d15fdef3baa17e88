/**
 * The engine's vocabulary: what it judges (a subject), with what (a policy and features), and
 * what it answers (a decision with reasons). Plain data only, so every rule is a pure function.
 */
import type { AllowKind } from "../../shared/schemas/allow-list.ts";
import type { Blocklist } from "../../shared/schemas/blocklist.ts";
import type { RuleSettings } from "../../shared/schemas/rule-settings.ts";
import type { ReasonKey, RuleKey, Rules } from "../../shared/schemas/rules.ts";
import type { LinkKind, ScreenType } from "../../shared/schemas/screening.ts";
import type { Templates } from "../../shared/schemas/templates.ts";
import type { Thresholds, Weights } from "../../shared/score/weights.ts";
import type { CountDecl, Counts } from "./counting.ts";

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

/**
 * From the browser collector: automation, how the watched form was filled (if one was), and
 * what the collect request's own headers said (request-consistency.ts).
 */
export type BrowserSignals = {
  webdriver: boolean;
  behavior: {
    timeToSubmitMs: number | null;
    pointerEvents: number;
    keyEvents: number;
    keyIntervalSdMs: number | null;
    pasteCount: number;
  } | null;
  /** Absent or null for tokens collected before the headers were kept. */
  request?: RequestHeaders | null;
};

/** A collect request's own headers; null: not sent (or unreadable). */
export type RequestHeaders = {
  /** Over https from an https page, where Chromium always sends its client hints. */
  secure: boolean;
  userAgent: string | null;
  acceptLanguage: boolean;
  language: string | null;
  /** sec-ch-ua's brand names. */
  brands: string[] | null;
  /** sec-ch-ua-mobile. */
  mobile: boolean | null;
  /** sec-ch-ua-platform, unquoted. */
  platform: string | null;
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
  /**
   * The risk score (score.ts): the weights in force (the shipped defaults or the merchant's
   * adopted fit) and, per event type, the review and block thresholds (from the templates that
   * are on, then the merchant's own). Absent: events get no score (tests of single rules).
   */
  score?: { weights: Weights; thresholds: Thresholds };
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
  rules: ReasonKey[];
};

export type { Counts };

/**
 * The other accounts this event's identities link it to (linked-accounts.ts): one hop through
 * a shared device, normalized email, card, referrer or IP off consumer networks.
 */
export type Links = {
  /** Distinct other accounts linked (at most the cap). */
  accounts: number;
  firstSeenLastHour: number;
  firstSeenLastDay: number;
  /** Of them, those with an event blocked, denied in review or labelled fraud. */
  bad: number;
  /** Accounts linked through each kind (an account can link through several). */
  through: { kind: LinkKind; accounts: number }[];
  /** Of them, those first seen in the last hour, per kind. */
  lastHourThrough: Partial<Record<LinkKind, number>>;
  /** Identities shared by too many accounts to link (a carrier's NAT, a shop's tablet). */
  hubs: { kind: LinkKind; accounts: number }[];
  /** When this event's own account, device and referrer were first seen (ms; null: never). */
  accountFirstSeen: number | null;
  deviceFirstSeen: number | null;
  referrerFirstSeen: number | null;
  /** Event times of the accounts linked in the last hour, oldest first (cadence). */
  recent: number[];
};

/** Refunds and disputes in Warden's Stripe records for this email or card. */
export type StripeHistory = { refunds: number; disputes: number };

/** Facts about the world the rules need, loaded by the caller (no I/O in the engine). */
export type Features = {
  /** The event's time, ms since the epoch (ages and windows are measured from it). */
  now?: number;
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
  links?: Links | null;
  stripeHistory?: StripeHistory | null;
};

export type RuleAction = "block" | "review";
export type Decision = "allow" | "review" | "block";

/** Why a rule fired: its action, a sentence for the merchant, and the value against the limit. */
export type Reason = {
  /** The rule that fired, or risk_score when the score passed a threshold. */
  rule: ReasonKey;
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

/** One part of an event's risk score (score.ts). */
export type Contribution = {
  /** A signal's key, or "baseline" for where the event type starts. */
  signal: string;
  points: number;
  detail: string;
  /** The signal's measured value (what a fit reads); absent for the baseline. */
  value?: number;
};

export type Evaluation = {
  decision: Decision;
  /** Radar's score for a charge; for an event, the risk score (score.ts), 0–100. */
  score: number | null;
  /** For an event: each signal's points, the baseline first, summing to the score. */
  contributions?: Contribution[];
  reasons: Reason[];
  /** Rules in monitor mode that would have fired. They never change the decision. */
  monitored: Reason[];
  /**
   * Set when an allow-list entry decided: the decision is allow, and what the live rules
   * found moves to `monitored` (they would have fired).
   */
  allowed?: Allowed;
};

/** One rule: which subjects it judges, what it counts, and a pure check. */
export type Rule = {
  key: RuleKey;
  appliesTo: readonly SubjectKind[];
  /** What the check reads from features.counts (counting.ts); none: it counts nothing. */
  counts?: readonly CountDecl[];
  check(subject: Subject, policy: Policy, features: Features): Finding | null;
};
