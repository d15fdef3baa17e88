/**
 * Where an end user's rows are (decision 029), and the reads an export, a preview and an
 * erasure share. Rows are found by exact, typed matches on the columns that hold a person
 * (personal-columns.ts); the predicates are built only for the kinds asked for. Each read
 * takes the client or a transaction it runs on.
 */
import { Prisma } from "../../db/generated/client.ts";
import { deliveryIsAbout } from "./delivery-about.ts";
import type { PersonValues } from "./scrub.ts";

/** What matched, per kind (an export's or preview's), or what an erasure changed. */
export type Counts = {
  screenings: number;
  charges: number;
  labels: number;
  allow_entries: number;
  signal_tokens: number;
  webhook_deliveries: number;
  audit_events: number;
  identities: number;
};

/** The keys of a screening's input an erasure keeps: nothing in them names anyone. */
export const KEPT_INPUT_KEYS = ["type", "amount", "currency"] as const;

/** Audit actions whose `after.note` is free text about the screening or charge in `target`. */
export const NOTE_ACTIONS = [
  "review.settle",
  "screeningsApi.decide",
  "chargesApi.decide",
  "labels.add",
  "labelsApi.create",
];
/** Decision webhook events an erasure never edits: earlier erasures' own (ids and counts). */
const DELIVERY_TYPES_ERASED_NEVER = ["end_user.erased"];

/** Rows read and written per statement: no statement holds the database for long. */
const CHUNK = 500;

export const arr = (values: readonly string[]) => Prisma.sql`${[...values]}::text[]`;
/** Emails folded by the database itself on both sides (the same lower() as the column's). */
export const folded = (emails: readonly string[]) =>
  Prisma.sql`ARRAY(SELECT lower(e) FROM unnest(${[...emails]}::text[]) AS e)`;

/** `column` = ANY(values), or nothing when there are none (no row is read for it). */
const anyOf = (column: Prisma.Sql, values: readonly string[]) =>
  values.length === 0 ? [] : [Prisma.sql`${column} = ANY(${arr(values)})`];
const anyEmail = (column: Prisma.Sql, emails: readonly string[]) =>
  emails.length === 0 ? [] : [Prisma.sql`lower(${column}) = ANY(${folded(emails)})`];
/** The parts joined by OR; FALSE when there are none. */
const either = (parts: Prisma.Sql[]) =>
  parts.length === 0 ? Prisma.sql`FALSE` : Prisma.sql`(${Prisma.join(parts, " OR ")})`;

// Only the predicates of the kinds asked for are built: a JSON column is read row by row only
// when a device or card was asked for.
export const screeningsOf = (accountId: string, v: PersonValues) => Prisma.sql`
  "accountId" = ${accountId} AND ${either([
    ...anyEmail(Prisma.sql`"email"`, v.emails),
    ...anyOf(Prisma.sql`"userId"`, v.userIds),
    ...anyOf(Prisma.sql`"ip"`, v.ips),
    ...anyOf(Prisma.sql`"collectIp"`, v.ips),
    ...anyOf(Prisma.sql`("input"->>'device_id')`, v.devices),
    ...anyOf(Prisma.sql`("signals"->>'device_id')`, v.devices),
    ...anyOf(Prisma.sql`("input"->>'card_fingerprint')`, v.cards),
  ])}`;

export const chargesOf = (accountId: string, v: PersonValues) => Prisma.sql`
  "accountId" = ${accountId} AND ${either([
    ...anyEmail(Prisma.sql`"email"`, v.emails),
    ...anyOf(Prisma.sql`"cardFingerprint"`, v.cards),
  ])}`;

export const tokensOf = (accountId: string, v: PersonValues) => Prisma.sql`
  "accountId" = ${accountId} AND ${either([
    ...anyOf(Prisma.sql`"collectIp"`, v.ips),
    ...anyOf(Prisma.sql`("signals"->>'device_id')`, v.devices),
  ])}`;

export const labelsOf = (accountId: string, found: Found) => Prisma.sql`
  "accountId" = ${accountId} AND (
    ("subjectKind" = 'screening' AND "subjectId" = ANY(${arr(found.screenings)}))
    OR ("subjectKind" = 'charge' AND "subjectId" = ANY(${arr(found.charges)})))`;

/** An allow-list entry's value naming the person: `kind`/`value` are the columns or JSON paths. */
function allowMatch(kind: Prisma.Sql, value: Prisma.Sql, v: PersonValues) {
  const cidrs = v.ips.flatMap((ip) => [ip, `${ip}/${ip.includes(":") ? 128 : 32}`]);
  return Prisma.sql`(
    (${kind} = 'email' AND lower(${value}) = ANY(${folded(v.emails)}))
    OR (${kind} = 'user_id' AND ${value} = ANY(${arr(v.userIds)}))
    OR (${kind} = 'device' AND ${value} = ANY(${arr(v.devices)}))
    OR (${kind} = 'ip_cidr' AND ${value} = ANY(${arr(cidrs)}))
    OR (${kind} = 'card_fingerprint' AND ${value} = ANY(${arr(v.cards)})))`;
}
export const allowEntriesOf = (accountId: string, v: PersonValues) =>
  Prisma.sql`"accountId" = ${accountId} AND ${allowMatch(Prisma.sql`"kind"::text`, Prisma.sql`"value"`, v)}`;

/** A LIKE pattern for `value` as a whole JSON string inside a document kept as text. */
const jsonStringLike = (value: string) =>
  `%${JSON.stringify(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The account's deliveries whose body holds one of the person's ids or values as a JSON
 * string: the candidates, read with a LIKE (no body is parsed in the database). Emails in
 * bodies are stored lowercased (a charge's email), as the patterns are.
 */
export const deliveryCandidates = (accountId: string, v: PersonValues, found: Found) => {
  const values = [...found.screenings, ...found.charges, ...v.userIds];
  const patterns = [...values, ...v.emails.map((email) => email.toLowerCase())].map(jsonStringLike);
  if (patterns.length === 0) return Prisma.sql`FALSE`;
  return Prisma.sql`"accountId" = ${accountId}
    AND "eventType" <> ALL(${arr(DELIVERY_TYPES_ERASED_NEVER)})
    AND "body" LIKE ANY(${arr(patterns)})`;
};

/**
 * Audit events that recorded the person's values as values: an allow-list entry naming them
 * (by the values asked for), a note on their screening or charge. Team, configuration and
 * earlier erasures' events never match.
 */
export const auditsOf = (accountId: string, asked: PersonValues, found: Found) => Prisma.sql`
  "accountId" = ${accountId} AND (
    ("action" = ANY(${arr(NOTE_ACTIONS)})
      AND "target" = ANY(${arr([...found.screenings, ...found.charges])}))
    OR ("action" = 'allowList.add' AND jsonb_typeof("after") = 'object'
      AND ${allowMatch(Prisma.sql`("after"->>'kind')`, Prisma.sql`("after"->>'value')`, asked)}))`;

/** Other people's screenings that name the person as their referrer (none without a user id). */
export const referralsOf = (accountId: string, v: PersonValues, found: Found) => Prisma.sql`
  "accountId" = ${accountId} AND ${either(anyOf(Prisma.sql`("input"->>'referrer_user_id')`, v.userIds))}
  AND NOT ("id" = ANY(${arr(found.screenings)}))`;

export const limitOf = (limit: number | null) =>
  limit === null ? Prisma.empty : Prisma.sql`LIMIT ${limit}`;

export type Found = { screenings: string[]; charges: string[] };

export const chunks = <T>(items: readonly T[]) =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) =>
    items.slice(i * CHUNK, (i + 1) * CHUNK),
  );

/** A screening's JSON columns other than input and signals (cleared whole). */
export const JSON_COLUMNS = {
  Screening: {
    reasons: "jsonb",
    monitored: "jsonb",
    contributions: "jsonb",
    allowed: "jsonb",
    unavailable: "jsonb",
    linked: "jsonb",
  },
} as const;
export const TEXT_COLUMNS = {
  Transaction: { ruleReason: "text", reviewReasons: "jsonb", actionError: "text" },
  StripeAction: { reason: "text", lastError: "text" },
} as const;
/** Another person's screening that named this one as its referrer: these columns only. */
export const REFERRAL_COLUMNS = {
  input: "jsonb",
  reasons: "jsonb",
  monitored: "jsonb",
  contributions: "jsonb",
} as const;

/** The Prisma client, or a transaction on it. */
export type Db = Prisma.TransactionClient;

/** The person's screenings' and charges' ids, newest first, at most `limit` of each. */
export async function ids(db: Db, accountId: string, v: PersonValues, limit: number | null) {
  // One after the other: `db` may be a transaction's one connection.
  const screenings = await db.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Screening" WHERE ${screeningsOf(accountId, v)}
    ORDER BY "createdAt" DESC, "id" DESC ${limitOf(limit)}`;
  const charges = await db.$queryRaw<{ id: string }[]>`
    SELECT "chargeId" AS "id" FROM "Transaction" WHERE ${chargesOf(accountId, v)}
    ORDER BY "created" DESC, "chargeId" DESC ${limitOf(limit)}`;
  return { screenings: screenings.map((r) => r.id), charges: charges.map((r) => r.id) };
}

/** The person's counting identities, per kind. */
export async function identityKinds(db: Db, accountId: string, screenings: string[]) {
  if (screenings.length === 0) return {};
  // Found through the time they share with their screening ("at" is indexed; the screening
  // id is not): a scan of the account's identities would read hundreds of thousands of rows.
  const times = (
    await db.$queryRaw<{ t: string }[]>`
      SELECT DISTINCT to_char("createdAt", 'YYYY-MM-DD HH24:MI:SS.MS') AS "t" FROM "Screening"
      WHERE "accountId" = ${accountId} AND "id" = ANY(${arr(screenings)})`
  ).map((row) => row.t);
  const rows = await db.$queryRaw<{ kind: string; n: number }[]>`
    SELECT "kind", count(*)::int AS "n" FROM "ScreeningIdentity"
    WHERE "at" = ANY(${arr(times)}::timestamp(3)[]) AND "accountId" = ${accountId}
      AND "screeningId" = ANY(${arr(screenings)})
    GROUP BY "kind" ORDER BY "kind"`;
  return Object.fromEntries(rows.map((row) => [row.kind, row.n]));
}

/** The deliveries about the person (deliveryIsAbout), newest first, with their bodies. */
export async function deliveriesAbout(db: Db, accountId: string, v: PersonValues, found: Found) {
  const rows = await db.$queryRaw<{ id: string; body: string }[]>`
    SELECT "id", "body" FROM "WebhookDelivery" WHERE ${deliveryCandidates(accountId, v, found)}
    ORDER BY "createdAt" DESC`;
  return rows.filter((row) => deliveryIsAbout(row.body, v, found));
}

export const sum = (kinds: Record<string, number>) =>
  Object.values(kinds).reduce((total, n) => total + n, 0);

/** How many of `table`'s rows match `where`. */
export const count = async (db: Db, table: string, where: Prisma.Sql) =>
  (
    await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS "n" FROM ${Prisma.raw(`"${table}"`)} WHERE ${where}`
  )[0]?.n ?? 0;

/** What matched or changed, per kind, under the names an export and the API give them. */
export function countsOf(
  found: Found,
  n: { labels: number; allowEntries: number; tokens: number; deliveries: number; audits: number },
  kinds: Record<string, number>,
): Counts {
  return {
    screenings: found.screenings.length,
    charges: found.charges.length,
    labels: n.labels,
    allow_entries: n.allowEntries,
    signal_tokens: n.tokens,
    webhook_deliveries: n.deliveries,
    audit_events: n.audits,
    identities: sum(kinds),
  };
}
