/**
 * Screening (POST /api/v1/screen and screening.screen): what a merchant's backend sends about
 * an event before it lets it happen, and Warden's answer. Exact: scripts outside the repo
 * rely on these names. Input is snake_case and strict (an unknown key is a 400 naming it).
 */
import { z } from "zod";
import { canonicalIp } from "../ip-address.ts";
import { ALLOW_KINDS } from "./allow-list.ts";
import { SIGNALS_STATUSES } from "./collect.ts";
import { REASON_KEYS, RULE_KEYS } from "./rules.ts";
import { SCREEN_TYPES } from "./screen-types.ts";
import { storableString } from "./storable.ts";

export { SCREEN_TYPES, type ScreenType } from "./screen-types.ts";

export const DECISIONS = ["allow", "review", "block"] as const;
/**
 * The verdict of one screening: allow, review or block. Not the typed client's
 * `ScreenDecision`, which is a whole answer (verdict, score, reasons) that was not degraded.
 */
export type ScreenVerdict = (typeof DECISIONS)[number];

/** Free text from a merchant's customer: trimmed, bounded, and storable (storable.ts). */
const text = (max: number) =>
  storableString().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

const IANA_ZONE = /^(?:[A-Za-z][A-Za-z0-9_+-]*)(?:\/[A-Za-z0-9_+-]+){0,2}$/;
const URLISH = (max: number) =>
  text(max).refine((value) => URL.canParse(value), { message: "must be an absolute URL" });

export const ZScreenInput = z.strictObject({
  type: z.enum(SCREEN_TYPES, { message: `must be one of ${SCREEN_TYPES.join(", ")}` }),
  user_id: text(200).optional(),
  email: text(320)
    .refine((value) => /^[^\s@]+@[^\s@]+$/.test(value), { message: "must be an email address" })
    .optional(),
  /** Stored in one form (ip-address.ts): ::ffff:127.0.0.1 is 127.0.0.1. */
  ip: z
    .union([z.ipv4(), z.ipv6()], { message: "must be an IPv4 or IPv6 address" })
    .transform(canonicalIp)
    .optional(),
  user_agent: text(1000).optional(),
  device_id: text(200).optional(),
  timezone: text(64)
    .refine((value) => IANA_ZONE.test(value), { message: "must be an IANA time zone name" })
    .optional(),
  origin: URLISH(2048).optional(),
  referrer: URLISH(2048).optional(),
  url: URLISH(2048).optional(),
  promo_code: text(200).optional(),
  referral_code: text(200).optional(),
  referrer_user_id: text(200).optional(),
  card_fingerprint: text(100).optional(),
  amount: z
    .number({ message: "must be a whole number of minor units" })
    .int("must be a whole number of minor units")
    .min(0, "must not be negative")
    .max(1e12, "is too large")
    .optional(),
  currency: z
    .string({ message: "must be a string" })
    .regex(/^[A-Za-z]{3}$/, "must be a three-letter ISO 4217 code")
    .transform((value) => value.toLowerCase())
    .optional(),
  /**
   * The token from the browser collector (warden.js `await Warden.token()`): its signals fill
   * device_id, timezone, origin, referrer, url and ip where these are not sent, and feed
   * rule_entropy. Single use, 10 minutes; a bad one never fails the screening.
   */
  signals: text(4096).optional(),
});
export type ScreenInput = z.input<typeof ZScreenInput>;
export type ScreenEvent = z.output<typeof ZScreenInput>;

const ZObserved = z.union([z.string(), z.number()]).nullable();

export const ZReason = z.object({
  /** The rule that fired, or risk_score: the score passed the event type's threshold. */
  rule: z.enum(REASON_KEYS),
  action: z.enum(["block", "review"]),
  message: z.string(),
  observed: ZObserved,
  limit: ZObserved,
});
export type ScreenReason = z.infer<typeof ZReason>;

/**
 * One signal's part in the risk score (server/engine/score.ts): its points (10 double the odds
 * of an attack; negative: less likely), what it saw, and the value measured. The first is the
 * event type's baseline; together they sum to `score` (held to 0–100).
 */
export const ZContribution = z.object({
  signal: z.string(),
  points: z.number().int(),
  detail: z.string(),
  value: z.number().optional(),
});
export type Contribution = z.infer<typeof ZContribution>;

/** A feature that could not be computed for this event (it counted as unknown), and why. */
export const ZUnavailable = z.object({ feature: z.string(), reason: z.string() });
export type Unavailable = z.infer<typeof ZUnavailable>;

/**
 * The allow-list entry that decided a screening (allow): which entry, who added it and when,
 * the sentence the merchant sees, and the live rules it overrode (listed in `monitored`).
 */
export const ZAllowed = z.object({
  kind: z.enum(ALLOW_KINDS),
  value: z.string(),
  added_by: z.string(),
  /** ISO 8601. */
  added_at: z.string(),
  message: z.string(),
  rules: z.array(z.enum(REASON_KEYS)),
});
export type AllowedView = z.infer<typeof ZAllowed>;

export const ZScreenResult = z.object({
  id: z.string(),
  decision: z.enum(DECISIONS),
  /** The risk score, 0–100, higher is riskier: the sum of `contributions`. */
  score: z.number().int().min(0).max(100),
  /** What makes up the score, the baseline first, then the largest parts. */
  contributions: z.array(ZContribution),
  reasons: z.array(ZReason),
  /** Rules in monitor mode that would have fired; they never change the decision. */
  monitored: z.array(ZReason),
  took_ms: z.number(),
  /**
   * Only when `signals` was sent: accepted (used), expired, used (already screened once),
   * invalid (malformed, unknown, or another account's), or refused (warden.js's collect was
   * refused: the page's origin is not allowed; `signals_reason` says which and where to allow
   * it). The decision stands either way.
   */
  signals: z.enum(SIGNALS_STATUSES).optional(),
  /** Only when `signals` is refused: why, e.g. "Origin http://localhost:4000 is not one of …". */
  signals_reason: z.string().optional(),
  /** Only when some feature could not be computed: the rules that needed it abstained. */
  unavailable: z.array(ZUnavailable).optional(),
  /**
   * Only when an allow-list entry decided: which one, and a sentence such as "allowed: user
   * id on allow list, added by … on …". What the rules found is then in `monitored`.
   */
  allowed: ZAllowed.optional(),
  /**
   * Only when the score did not act although it reached the level Warden acts at for the
   * event type (its shipped review or block threshold), because no threshold is in force for
   * the type: "score 100, not acted on: no threshold for signups; set one or turn on a
   * template" (shared/score/score-note.ts). The decision stands as the rules made it.
   */
  score_note: z.string().optional(),
});
export type ScreenResult = z.infer<typeof ZScreenResult>;

/** A stored screening as the console lists it. */
export const ZScreeningRow = z.object({
  id: z.string(),
  created_at: z.string(),
  type: z.enum(SCREEN_TYPES),
  user_id: z.string().nullable(),
  email: z.string().nullable(),
  ip: z.string().nullable(),
  /** The address the browser collector saw, when the screening came with its token. */
  collect_ip: z.string().nullable(),
  decision: z.enum(DECISIONS),
  score: z.number(),
  /** What makes up the score (empty on screenings stored before the risk score). */
  contributions: z.array(ZContribution),
  reasons: z.array(ZReason),
  monitored: z.array(ZReason),
  /** Features that could not be computed for it: the rules that needed them abstained. */
  unavailable: z.array(ZUnavailable),
  /** The allow-list entry that decided it; null when none did. */
  allowed: ZAllowed.nullable(),
});
export type ScreeningRow = z.infer<typeof ZScreeningRow>;

export const ZScreeningListInput = z.object({
  decision: z.enum(DECISIONS).optional(),
  type: z.enum(SCREEN_TYPES).optional(),
  rule: z.enum(REASON_KEYS).optional(),
  /**
   * Part of an email (any case), the start of a user id or of an IP address (203.0.113.), or
   * a whole IP address. `%` and `_` mean themselves.
   */
  search: storableString().trim().max(200).optional(),
  limit: z.number().int().min(1).max(200).default(50),
  /** Opaque, from a previous page's nextCursor. */
  cursor: z.string().max(200).nullish(),
});
export type ScreeningListInput = z.input<typeof ZScreeningListInput>;

export const ZScreeningPage = z.object({
  items: z.array(ZScreeningRow),
  nextCursor: z.string().nullable(),
});

export const ZScreeningCounts = z.object({
  /** Decisions in the last 24 hours. */
  allow: z.number().int(),
  review: z.number().int(),
  block: z.number().int(),
});
export type ScreeningCounts = z.infer<typeof ZScreeningCounts>;

/**
 * What joins two accounts (decision 023): a shared device, normalized email, card, IP off
 * consumer networks (the address, or its /64), or referrer. Kinds a farm cannot reset cheaply.
 */
export const LINK_KINDS = ["device", "email", "card", "ip", "referrer"] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** At most this many linked accounts in a summary or a list: 50 reads "50 or more". */
export const LINKED_ACCOUNTS_MAX = 50;

/** Accounts per link kind: linked through it, or sharing a hub of it. */
export const ZLinkCount = z.object({
  kind: z.enum(LINK_KINDS),
  accounts: z.number().int().min(0),
});
export type LinkCount = z.infer<typeof ZLinkCount>;

/**
 * The accounts a screening was linked to when it was screened (decision 023), stored with it
 * by the screening path (Screening.linked); null on screenings stored before. One hop through
 * its own identities, over the 30 days before it. An account is an end user: the merchant's
 * user id, else the normalized email.
 */
export const ZLinkedSummary = z.object({
  accounts: z
    .number()
    .int()
    .min(0)
    .describe("Distinct other accounts linked, at most 50 (50 means 50 or more)"),
  first_seen_last_hour: z
    .number()
    .int()
    .min(0)
    .describe("Of them, first seen on a shared identity in the hour before this screening"),
  first_seen_last_day: z.number().int().min(0).describe("... and in the day before it"),
  bad: z
    .number()
    .int()
    .min(0)
    .describe("Of them, accounts with a screening blocked, denied in review or labelled fraud"),
  through: z
    .array(ZLinkCount)
    .describe("Accounts linked through each kind (one account may link through several)"),
  hubs: z
    .array(ZLinkCount)
    .describe(
      "Identities shared by more than 25 accounts (a carrier's NAT, an office's device): they link nobody",
    ),
  account_first_seen: z
    .string()
    .nullable()
    .optional()
    .describe(
      "When this account was first seen on one of its linking identities in the 30 days before (ISO 8601); null: this screening is its first",
    ),
  device_first_seen: z
    .string()
    .nullable()
    .optional()
    .describe(
      "When this screening's device was first seen by this merchant in the 30 days before (ISO 8601); null: never before, or no device",
    ),
});
export type LinkedSummary = z.infer<typeof ZLinkedSummary>;
