/**
 * The audit log as read over tRPC (audit.list) and REST (GET /api/audit, GET /api/audit.csv):
 * its filters, a page of events, newest first, and one event. The filters are the same
 * everywhere, so the console's "Export CSV" link carries exactly what its list shows.
 */
import { z } from "zod";
import { storableString } from "./storable.ts";

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;
/** Names or prefixes in one `action` filter (a group such as "rules.,ruleSettings."). */
const ACTIONS_MAX = 20;

export const AUDIT_ACTOR_KINDS = ["member", "api_key", "system"] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** An action ("rules.put", "auth.sign_in") or a prefix ending with "." ("rules."). */
const ACTION = /^[A-Za-z][A-Za-z_]*\.([A-Za-z_]+)?$/;

/**
 * One action or prefix, or several separated by commas: "rules." (every rules change),
 * "auth.sign_in_failed", "blocklist.,allowList.". Read as the list of them.
 */
const ZActionFilter = z
  .string({ message: "must be a string" })
  .max(300, "must be at most 300 characters")
  .transform((raw) =>
    raw
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .refine((parts) => parts.length <= ACTIONS_MAX, {
    message: `must name at most ${ACTIONS_MAX} actions`,
  })
  .refine((parts) => parts.every((part) => ACTION.test(part)), {
    message: 'must be actions such as "rules.put" or prefixes such as "rules.", comma-separated',
  });

const DAY_MS = 86_400_000;

/**
 * A time: ISO 8601 with its offset ("2026-11-20T10:00:00Z"), or a date ("2026-11-20", a UTC
 * day). `end` reads a date as the end of that day, so `until=2026-11-20` takes in all of it.
 */
const zTime = (end: boolean) =>
  z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], {
      message: "must be an ISO 8601 date (2026-11-20) or time (2026-11-20T10:00:00Z)",
    })
    .transform((text) => {
      const at = new Date(text);
      return end && text.length === 10 ? new Date(at.getTime() + DAY_MS) : at;
    });

const FILTERS = {
  action: ZActionFilter.optional(),
  /** Part of the actor, any case: a member's email, or "API key" for every key. */
  actor: storableString().trim().max(200, "must be at most 200 characters").optional(),
  /** From this time on. */
  since: zTime(false).optional(),
  /** Before this time (a date: up to the end of it). */
  until: zTime(true).optional(),
};

const sinceBeforeUntil = (value: { since?: Date; until?: Date }) =>
  !value.since || !value.until || value.since < value.until;
const SINCE_BEFORE_UNTIL = { message: "must be after since", path: ["until"] };

const ZLimit = z
  .number({ message: "must be a number" })
  .int("must be a whole number")
  .min(1, "must be at least 1")
  .max(AUDIT_PAGE_MAX, `must be at most ${AUDIT_PAGE_MAX}`);
/** Opaque, from a previous page's next_cursor. */
const ZCursor = z
  .string({ message: "must be a string" })
  .max(200, "must be at most 200 characters");

/**
 * What the console's list asks for (tRPC audit.list). Not strict: an infinite query adds its
 * own `direction`.
 */
export const ZAuditListInput = z
  .object({
    ...FILTERS,
    cursor: ZCursor.nullish(),
    limit: ZLimit.default(AUDIT_PAGE_DEFAULT),
  })
  .refine(sinceBeforeUntil, SINCE_BEFORE_UNTIL);
export type AuditListInput = z.input<typeof ZAuditListInput>;
export type AuditListQuery = z.output<typeof ZAuditListInput>;

/** GET /api/audit's query string: the same, with the limit as text. */
export const ZAuditApiQuery = z
  .object({
    ...FILTERS,
    cursor: ZCursor.optional(),
    limit: z
      .string({ message: "must be a number" })
      .optional()
      .transform((raw) =>
        raw === undefined ? AUDIT_PAGE_DEFAULT : raw.trim() === "" ? Number.NaN : Number(raw),
      )
      .pipe(ZLimit),
  })
  .refine(sinceBeforeUntil, SINCE_BEFORE_UNTIL);

/** GET /api/audit.csv's query string: the filters; every matching event is written. */
export const ZAuditExportQuery = z.object(FILTERS).refine(sinceBeforeUntil, SINCE_BEFORE_UNTIL);
export type AuditFilters = z.output<typeof ZAuditExportQuery>;

export const ZAuditEvent = z.object({
  id: z.string(),
  /** ISO 8601, UTC. */
  at: z.string(),
  actor_kind: z.enum(AUDIT_ACTOR_KINDS),
  /** The member's email, or the key by name and the start of its id: "API key ci (1a2b3c4d)". */
  actor: z.string(),
  ip: z.string().nullable(),
  action: z.string(),
  /** What it was done to (an id), when it was one thing. */
  target: z.string().nullable(),
  /**
   * What a person reads for the target, kept when the event was written ("bob@shop.com",
   * "API key ci", "signup screening (blocked, score 92)"); null when there is none.
   */
  target_label: z.string().nullable(),
  /** The state before the change (for a whole object replaced), secrets masked. */
  before: z.unknown(),
  /** The state after, or what was sent; secrets masked. */
  after: z.unknown(),
});
export type AuditEvent = z.infer<typeof ZAuditEvent>;

export const ZAuditPage = z.object({
  items: z.array(ZAuditEvent),
  /** Give it back as `cursor` for the next page; null on the last. */
  next_cursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof ZAuditPage>;

/** The CSV's columns, in order. */
export const AUDIT_CSV_COLUMNS = [
  "at",
  "actor_kind",
  "actor",
  "ip",
  "action",
  "target",
  "before",
  "after",
  "target_label",
] as const;
