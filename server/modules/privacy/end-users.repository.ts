/**
 * The only code that touches the database for an end user's data rights (decision 029). Rows
 * are found by exact, typed matches on the columns that hold a person (personal-columns.ts),
 * and only those rows change: their personal fields are cleared, and their text and JSON are
 * edited as values (scrub.ts), never as the text of a whole column. Configuration, enums,
 * statuses and sealed secrets are never touched. One transaction, in bounded statements.
 */
import { Prisma, type PrismaClient } from "../../db/generated/client.ts";
import type { DecisionEvent, EventOutbox } from "../webhooks/webhooks.types.ts";
import {
  ERASED,
  type Matcher,
  matcherOf,
  type PersonValues,
  scrubJson,
  scrubText,
} from "./scrub.ts";

export type { PersonValues };

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
const MAX_EXPANDED = 100;

type Db = Prisma.TransactionClient;

const arr = (values: readonly string[]) => Prisma.sql`${[...values]}::text[]`;
/** Emails folded by the database itself on both sides (the same lower() as the column's). */
const folded = (emails: readonly string[]) =>
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
const screeningsOf = (accountId: string, v: PersonValues) => Prisma.sql`
  "accountId" = ${accountId} AND ${either([
    ...anyEmail(Prisma.sql`"email"`, v.emails),
    ...anyOf(Prisma.sql`"userId"`, v.userIds),
    ...anyOf(Prisma.sql`"ip"`, v.ips),
    ...anyOf(Prisma.sql`"collectIp"`, v.ips),
    ...anyOf(Prisma.sql`("input"->>'device_id')`, v.devices),
    ...anyOf(Prisma.sql`("signals"->>'device_id')`, v.devices),
    ...anyOf(Prisma.sql`("input"->>'card_fingerprint')`, v.cards),
  ])}`;

const chargesOf = (accountId: string, v: PersonValues) => Prisma.sql`
  "accountId" = ${accountId} AND ${either([
    ...anyEmail(Prisma.sql`"email"`, v.emails),
    ...anyOf(Prisma.sql`"cardFingerprint"`, v.cards),
  ])}`;

const tokensOf = (accountId: string, v: PersonValues) => Prisma.sql`
  "accountId" = ${accountId} AND ${either([
    ...anyOf(Prisma.sql`"collectIp"`, v.ips),
    ...anyOf(Prisma.sql`("signals"->>'device_id')`, v.devices),
  ])}`;

const labelsOf = (accountId: string, found: Found) => Prisma.sql`
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
const allowEntriesOf = (accountId: string, v: PersonValues) =>
  Prisma.sql`"accountId" = ${accountId} AND ${allowMatch(Prisma.sql`"kind"::text`, Prisma.sql`"value"`, v)}`;

/** A LIKE pattern for `value` as a whole JSON string inside a document kept as text. */
const jsonStringLike = (value: string) =>
  `%${JSON.stringify(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The account's deliveries whose body holds one of the person's ids or values as a JSON
 * string: the candidates, read with a LIKE (no body is parsed in the database). Emails in
 * bodies are stored lowercased (a charge's email), as the patterns are.
 */
const deliveryCandidates = (accountId: string, v: PersonValues, found: Found) => {
  const values = [...found.screenings, ...found.charges, ...v.userIds];
  const patterns = [...values, ...v.emails.map((email) => email.toLowerCase())].map(jsonStringLike);
  if (patterns.length === 0) return Prisma.sql`FALSE`;
  return Prisma.sql`"accountId" = ${accountId}
    AND "eventType" <> ALL(${arr(DELIVERY_TYPES_ERASED_NEVER)})
    AND "body" LIKE ANY(${arr(patterns)})`;
};

/** Whether a delivery's event is about the person's rows, or names their user id or email. */
export function deliveryIsAbout(body: string, v: PersonValues, found: Found): boolean {
  let event: { data?: Record<string, Record<string, unknown> | undefined> };
  try {
    event = JSON.parse(body);
  } catch {
    return false;
  }
  const data = event.data ?? {};
  const screenings = new Set(found.screenings);
  const charges = new Set(found.charges);
  const users = new Set(v.userIds);
  const emails = new Set(v.emails.map((email) => email.toLowerCase()));
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  const is = (set: Set<string>, value: unknown) => {
    const t = text(value);
    return t !== null && set.has(t);
  };
  const { screening, review, label, charge } = data;
  return (
    is(screenings, screening?.id) ||
    is(users, screening?.user_id) ||
    is(screenings, review?.screening_id) ||
    is(charges, review?.charge_id) ||
    is(users, review?.user_id) ||
    emails.has(text(review?.email)?.toLowerCase() ?? "") ||
    is(screenings, label?.subject_id) ||
    is(charges, label?.subject_id) ||
    is(charges, charge?.id)
  );
}

/**
 * Audit events that recorded the person's values as values: an allow-list entry naming them
 * (by the values asked for), a note on their screening or charge. Team, configuration and
 * earlier erasures' events never match.
 */
const auditsOf = (accountId: string, asked: PersonValues, found: Found) => Prisma.sql`
  "accountId" = ${accountId} AND (
    ("action" = ANY(${arr(NOTE_ACTIONS)})
      AND "target" = ANY(${arr([...found.screenings, ...found.charges])}))
    OR ("action" = 'allowList.add' AND jsonb_typeof("after") = 'object'
      AND ${allowMatch(Prisma.sql`("after"->>'kind')`, Prisma.sql`("after"->>'value')`, asked)}))`;

/** Other people's screenings that name the person as their referrer (none without a user id). */
const referralsOf = (accountId: string, v: PersonValues, found: Found) => Prisma.sql`
  "accountId" = ${accountId} AND ${either(anyOf(Prisma.sql`("input"->>'referrer_user_id')`, v.userIds))}
  AND NOT ("id" = ANY(${arr(found.screenings)}))`;

const limitOf = (limit: number | null) =>
  limit === null ? Prisma.empty : Prisma.sql`LIMIT ${limit}`;

type Found = { screenings: string[]; charges: string[] };

const chunks = <T>(items: readonly T[]) =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) =>
    items.slice(i * CHUNK, (i + 1) * CHUNK),
  );

/**
 * One of the account's `slots` erasure slots, held until the transaction ends, on every
 * instance (an advisory lock); false when all are taken.
 */
async function claimSlot(db: Db, accountId: string, slots: number): Promise<boolean> {
  for (let slot = 0; slot < slots; slot++) {
    const [row] = await db.$queryRaw<{ ok: boolean }[]>`
      SELECT pg_try_advisory_xact_lock(hashtext('warden.erasure'), hashtext(${`${accountId}:${slot}`})) AS "ok"`;
    if (row?.ok) return true;
  }
  return false;
}

/** Retried once more on a deadlock or a serialization failure between two erasures. */
function retryable(error: unknown): boolean {
  const text = String((error as { message?: string })?.message ?? error);
  return ["40P01", "40001"].some((code) => text.includes(code)) || /deadlock/i.test(text);
}

/** Sets each row's changed columns from one JSON array of `{ id, ...columns }` (one statement). */
async function updateRows(
  db: Db,
  table: "Screening" | "Transaction" | "StripeAction" | "WebhookDelivery" | "AuditEvent",
  key: "id" | "chargeId",
  accountId: string,
  columns: Record<string, "jsonb" | "text">,
  rows: Record<string, unknown>[],
): Promise<number> {
  let changed = 0;
  for (const chunk of chunks(rows)) {
    const names = Object.keys(columns);
    const sets = names.map((name) => Prisma.raw(`"${name}" = x."${name}"`));
    const shape = names.map((name) => Prisma.raw(`"${name}" ${columns[name]}`));
    changed += await db.$executeRaw`
      UPDATE ${Prisma.raw(`"${table}"`)} AS t SET ${Prisma.join(sets)}
      FROM jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb)
        AS x(${Prisma.raw(`"${key}" text`)}, ${Prisma.join(shape)})
      WHERE t."accountId" = ${accountId} AND t.${Prisma.raw(`"${key}"`)} = x.${Prisma.raw(`"${key}"`)}`;
  }
  return changed;
}

export function createEndUsersRepository(prisma: PrismaClient, outbox?: EventOutbox) {
  async function ids(db: Db, accountId: string, v: PersonValues, limit: number | null) {
    // One after the other: `db` may be a transaction's one connection.
    const screenings = await db.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "Screening" WHERE ${screeningsOf(accountId, v)}
      ORDER BY "createdAt" DESC, "id" DESC ${limitOf(limit)}`;
    const charges = await db.$queryRaw<{ id: string }[]>`
      SELECT "chargeId" AS "id" FROM "Transaction" WHERE ${chargesOf(accountId, v)}
      ORDER BY "created" DESC, "chargeId" DESC ${limitOf(limit)}`;
    return { screenings: screenings.map((r) => r.id), charges: charges.map((r) => r.id) };
  }

  async function identityKinds(db: Db, accountId: string, screenings: string[]) {
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
  async function deliveriesAbout(db: Db, accountId: string, v: PersonValues, found: Found) {
    const rows = await db.$queryRaw<{ id: string; body: string }[]>`
      SELECT "id", "body" FROM "WebhookDelivery" WHERE ${deliveryCandidates(accountId, v, found)}
      ORDER BY "createdAt" DESC`;
    return rows.filter((row) => deliveryIsAbout(row.body, v, found));
  }

  const sum = (kinds: Record<string, number>) =>
    Object.values(kinds).reduce((total, n) => total + n, 0);

  const count = async (db: Db, table: string, where: Prisma.Sql) =>
    (
      await db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS "n" FROM ${Prisma.raw(`"${table}"`)} WHERE ${where}`
    )[0]?.n ?? 0;

  /** Clears the person's screenings: identities out of their columns, their JSON scrubbed. */
  async function eraseScreenings(db: Db, accountId: string, found: string[], m: Matcher) {
    const kept = KEPT_INPUT_KEYS.map((key) => Prisma.sql`${key}::text, "input"->${key}::text`);
    for (const chunk of chunks(found)) {
      const rows = await db.$queryRaw<Record<string, unknown>[]>`
        SELECT "id", "reasons", "monitored", "contributions", "allowed", "unavailable", "linked"
        FROM "Screening" WHERE "accountId" = ${accountId} AND "id" = ANY(${arr(chunk)})`;
      await db.$executeRaw`
        UPDATE "Screening" SET "userId" = NULL, "email" = NULL, "ip" = NULL,
          "collectIp" = NULL, "signals" = NULL, "reviewNote" = NULL,
          "input" = jsonb_strip_nulls(jsonb_build_object(${Prisma.join(kept)}))
        WHERE "accountId" = ${accountId} AND "id" = ANY(${arr(chunk)})`;
      await scrubColumns(db, "Screening", accountId, rows, m, JSON_COLUMNS.Screening);
    }
  }

  /** Rewrites the rows whose JSON or text columns named the person; the rest stay as they are. */
  async function scrubColumns(
    db: Db,
    table: "Screening" | "Transaction" | "StripeAction",
    accountId: string,
    rows: Record<string, unknown>[],
    m: Matcher,
    columns: Record<string, "jsonb" | "text">,
  ) {
    const key = table === "Transaction" ? "chargeId" : "id";
    const changed = rows.flatMap((row) => {
      let any = false;
      const next: Record<string, unknown> = { [key]: row[key] };
      for (const [column, type] of Object.entries(columns)) {
        const value = row[column] ?? null;
        if (type === "text") {
          next[column] = scrubText(value as string | null, m);
          any ||= next[column] !== value;
        } else {
          const scrubbed = scrubJson(value, m);
          next[column] = scrubbed.value;
          any ||= scrubbed.changed;
        }
      }
      return any ? [next] : [];
    });
    return updateRows(db, table, key, accountId, columns, changed);
  }

  return {
    /**
     * The emails and user ids of the screenings that carried any of `emails` or `userIds`:
     * offered to the merchant as the same person's, applied only when they confirm (decision
     * 029). Never through an IP or a device.
     */
    async alsoKnownAs(accountId: string, emails: string[], userIds: string[]) {
      if (emails.length === 0 && userIds.length === 0) return { emails: [], userIds: [] };
      const rows = await prisma.$queryRaw<{ email: string | null; userId: string | null }[]>`
        SELECT DISTINCT "email", "userId" FROM "Screening"
        WHERE "accountId" = ${accountId}
          AND (lower("email") = ANY(${folded(emails)}) OR "userId" = ANY(${arr(userIds)}))
        LIMIT ${MAX_EXPANDED}`;
      return {
        emails: rows.flatMap((row) => (row.email ? [row.email] : [])),
        userIds: rows.flatMap((row) => (row.userId ? [row.userId] : [])),
      };
    },

    /**
     * Stored emails at `domains` (any case) whose lowercase form without dots starts with
     * `prefix`: the few candidates for one inbox's spellings, for the caller to fold and check.
     */
    async emailsLike(accountId: string, domains: string[], prefix: string) {
      if (domains.length === 0 || prefix === "") return [];
      const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const candidate = (column: Prisma.Sql) => Prisma.sql`
        lower(substr(${column}, strpos(${column}, '@') + 1)) = ANY(${folded(domains)})
        AND replace(lower(${column}), '.', '') LIKE ${like}`;
      const rows = await prisma.$queryRaw<{ email: string }[]>`
        SELECT "email" FROM "Screening"
          WHERE "accountId" = ${accountId} AND ${candidate(Prisma.sql`"email"`)}
        UNION SELECT "email" FROM "Transaction"
          WHERE "accountId" = ${accountId} AND ${candidate(Prisma.sql`"email"`)}
        UNION SELECT "value" FROM "AllowEntry"
          WHERE "accountId" = ${accountId} AND "kind" = 'email' AND ${candidate(Prisma.sql`"value"`)}
        LIMIT ${MAX_EXPANDED}`;
      return rows.map((row) => row.email);
    },

    /** The devices and cards the person's screenings and charges carried. */
    async devicesAndCards(accountId: string, v: PersonValues) {
      const db = prisma as unknown as Db;
      const found = await ids(db, accountId, v, 1000);
      const devices = await db.$queryRaw<{ value: string }[]>`
        SELECT DISTINCT v AS "value" FROM "Screening",
          LATERAL (VALUES ("input"->>'device_id'), ("signals"->>'device_id')) AS d(v)
        WHERE "accountId" = ${accountId} AND "id" = ANY(${arr(found.screenings)}) AND v IS NOT NULL
        LIMIT ${MAX_EXPANDED}`;
      const cards = await db.$queryRaw<{ value: string }[]>`
        SELECT DISTINCT "cardFingerprint" AS "value" FROM "Transaction"
        WHERE "accountId" = ${accountId} AND "chargeId" = ANY(${arr(found.charges)})
          AND "cardFingerprint" IS NOT NULL
        UNION SELECT DISTINCT "input"->>'card_fingerprint' FROM "Screening"
        WHERE "accountId" = ${accountId} AND "id" = ANY(${arr(found.screenings)})
          AND "input"->>'card_fingerprint' IS NOT NULL
        LIMIT ${MAX_EXPANDED}`;
      return { devices: devices.map((r) => r.value), cards: cards.map((r) => r.value) };
    },

    /**
     * How many rows of each kind hold the person. `v` is everything matched; `asked` the
     * values the merchant named (allow entries and their audit events go by these only).
     */
    async counts(accountId: string, v: PersonValues, asked: PersonValues) {
      const db = prisma as unknown as Db;
      const found = await ids(db, accountId, v, null);
      const labels = await count(db, "Label", labelsOf(accountId, found));
      const allowEntries = await count(db, "AllowEntry", allowEntriesOf(accountId, asked));
      const tokens = await count(db, "SignalToken", tokensOf(accountId, v));
      const deliveries = (await deliveriesAbout(db, accountId, v, found)).length;
      const audits = await count(db, "AuditEvent", auditsOf(accountId, asked, found));
      const kinds = await identityKinds(db, accountId, found.screenings);
      const counts: Counts = {
        screenings: found.screenings.length,
        charges: found.charges.length,
        labels,
        allow_entries: allowEntries,
        signal_tokens: tokens,
        webhook_deliveries: deliveries,
        audit_events: audits,
        identities: sum(kinds),
      };
      return { counts, identityKinds: kinds };
    },

    /** The person's rows, at most `limit` of each kind, newest first. */
    async rows(accountId: string, v: PersonValues, asked: PersonValues, limit: number) {
      const db = prisma as unknown as Db;
      const found = await ids(db, accountId, v, limit);
      const idsOf = async (table: string, where: Prisma.Sql, newest: string) =>
        (
          await db.$queryRaw<{ id: string }[]>`
            SELECT "id" FROM ${Prisma.raw(`"${table}"`)} WHERE ${where}
            ORDER BY ${Prisma.raw(`"${newest}"`)} DESC LIMIT ${limit}`
        ).map((row) => row.id);
      const labels = await idsOf("Label", labelsOf(accountId, found), "createdAt");
      const allowEntries = await idsOf("AllowEntry", allowEntriesOf(accountId, asked), "createdAt");
      const tokens = await idsOf("SignalToken", tokensOf(accountId, v), "createdAt");
      const deliveries = (await deliveriesAbout(db, accountId, v, found))
        .slice(0, limit)
        .map((row) => row.id);
      const audits = await idsOf("AuditEvent", auditsOf(accountId, asked, found), "at");
      const [screenings, charges, labelRows, allowRows, tokenRows, deliveryRows, auditRows] =
        await Promise.all([
          prisma.screening.findMany({
            where: { accountId, id: { in: found.screenings } },
            orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          }),
          prisma.transaction.findMany({
            where: { accountId, chargeId: { in: found.charges } },
            orderBy: [{ created: "desc" }, { chargeId: "desc" }],
          }),
          prisma.label.findMany({
            where: { accountId, id: { in: labels } },
            orderBy: { createdAt: "desc" },
          }),
          prisma.allowEntry.findMany({
            where: { accountId, id: { in: allowEntries } },
            orderBy: { createdAt: "desc" },
          }),
          prisma.signalToken.findMany({
            where: { accountId, id: { in: tokens } },
            orderBy: { createdAt: "desc" },
            omit: { tokenHash: true },
          }),
          prisma.webhookDelivery.findMany({
            where: { accountId, id: { in: deliveries } },
            orderBy: { createdAt: "desc" },
          }),
          prisma.auditEvent.findMany({
            where: { accountId, id: { in: audits } },
            orderBy: { at: "desc" },
          }),
        ]);
      return {
        screenings,
        charges,
        labels: labelRows,
        allowEntries: allowRows,
        tokens: tokenRows,
        deliveries: deliveryRows,
        audits: auditRows,
      };
    },

    /**
     * Erases the person in one transaction (what to change is read before it): their
     * screenings' and charges' personal fields and the values in their text and JSON, the
     * notes on their labels, their allow-list entries (by the values asked for) and collector
     * tokens, the deliveries and audit events that recorded their values, and their user id
     * where another person's screening named them as its referrer; stores the
     * `end_user.erased` event. The counting identities stay. Null when all of the account's
     * `slots` erasure slots are taken (on any instance).
     */
    async erase(
      accountId: string,
      v: PersonValues,
      asked: PersonValues,
      eventsOf: (counts: Counts) => DecisionEvent[],
      slots: number,
    ): Promise<{
      counts: Counts;
      identityKinds: Record<string, number>;
      staged: boolean;
    } | null> {
      const m = matcherOf(v);
      // Found first, outside the transaction: on the embedded database a transaction holds
      // the one connection, so every other request waits while it runs. What is read here does
      // not change once written (a delivery's body, an audit event, a screening's input and
      // reasons); the transaction then writes by primary key only.
      const db = prisma as unknown as Db;
      const found = await ids(db, accountId, v, null);
      const deliveries = await deliveriesAbout(db, accountId, v, found);
      const audits = await db.$queryRaw<{ id: string; action: string; after: unknown }[]>`
        SELECT "id", "action", "after" FROM "AuditEvent" WHERE ${auditsOf(accountId, asked, found)}`;
      const referrals = await db.$queryRaw<Record<string, unknown>[]>`
        SELECT "id", "input", "reasons", "monitored", "contributions" FROM "Screening"
        WHERE ${referralsOf(accountId, v, found)}`;
      const allowIds = (
        await db.$queryRaw<{ id: string }[]>`
          SELECT "id" FROM "AllowEntry" WHERE ${allowEntriesOf(accountId, asked)}`
      ).map((row) => row.id);
      const tokenIds = (
        await db.$queryRaw<
          { id: string }[]
        >`SELECT "id" FROM "SignalToken" WHERE ${tokensOf(accountId, v)}`
      ).map((row) => row.id);
      const kinds = await identityKinds(db, accountId, found.screenings);
      const bodies = deliveries.map((row) => ({
        id: row.id,
        body: JSON.stringify(scrubJson(JSON.parse(row.body), m).value),
      }));
      const afters = audits.map((row) => ({
        id: row.id,
        after: auditAfter(row.action, row.after),
      }));
      const run = () =>
        prisma.$transaction(
          async (tx) => {
            if (!(await claimSlot(tx, accountId, slots))) return null;
            await tx.$queryRaw`SELECT set_config('warden.erasure', 'on', true)`;
            const labels = await tx.$executeRaw`
              UPDATE "Label" SET "note" = NULL WHERE ${labelsOf(accountId, found)}`;
            await eraseScreenings(tx, accountId, found.screenings, m);
            for (const chunk of chunks(found.charges)) {
              const rows = await tx.$queryRaw<Record<string, unknown>[]>`
                SELECT "chargeId", "ruleReason", "reviewReasons", "actionError" FROM "Transaction"
                WHERE "accountId" = ${accountId} AND "chargeId" = ANY(${arr(chunk)})`;
              await tx.$executeRaw`
                UPDATE "Transaction" SET "email" = NULL, "cardFingerprint" = NULL,
                  "reviewNote" = NULL, "personalClearedAt" = (now() AT TIME ZONE 'UTC')
                WHERE "accountId" = ${accountId} AND "chargeId" = ANY(${arr(chunk)})`;
              await scrubColumns(tx, "Transaction", accountId, rows, m, TEXT_COLUMNS.Transaction);
              const actions = await tx.$queryRaw<Record<string, unknown>[]>`
                SELECT "id", "reason", "lastError" FROM "StripeAction"
                WHERE "accountId" = ${accountId} AND "chargeId" = ANY(${arr(chunk)})`;
              await scrubColumns(
                tx,
                "StripeAction",
                accountId,
                actions,
                m,
                TEXT_COLUMNS.StripeAction,
              );
            }
            const allowEntries = await tx.$executeRaw`
              DELETE FROM "AllowEntry" WHERE "accountId" = ${accountId} AND "id" = ANY(${arr(allowIds)})`;
            const tokens = await tx.$executeRaw`
              DELETE FROM "SignalToken" WHERE "accountId" = ${accountId} AND "id" = ANY(${arr(tokenIds)})`;
            await updateRows(tx, "WebhookDelivery", "id", accountId, { body: "text" }, bodies);
            await updateRows(tx, "AuditEvent", "id", accountId, { after: "jsonb" }, afters);
            await scrubColumns(tx, "Screening", accountId, referrals, m, REFERRAL_COLUMNS);
            const counts: Counts = {
              screenings: found.screenings.length,
              charges: found.charges.length,
              labels,
              allow_entries: allowEntries,
              signal_tokens: tokens,
              webhook_deliveries: deliveries.length,
              audit_events: audits.length,
              identities: sum(kinds),
            };
            const events = eventsOf(counts);
            if (outbox && events.length > 0) await outbox.stage(tx, accountId, events);
            return { counts, identityKinds: kinds, staged: Boolean(outbox) && events.length > 0 };
          },
          { maxWait: 30_000, timeout: 600_000 },
        );
      for (let attempt = 1; ; attempt++) {
        try {
          return await run();
        } catch (error) {
          if (attempt >= 3 || !retryable(error)) throw error;
        }
      }
    },
  };
}

/** A screening's JSON columns other than input and signals (cleared whole). */
const JSON_COLUMNS = {
  Screening: {
    reasons: "jsonb",
    monitored: "jsonb",
    contributions: "jsonb",
    allowed: "jsonb",
    unavailable: "jsonb",
    linked: "jsonb",
  },
} as const;
const TEXT_COLUMNS = {
  Transaction: { ruleReason: "text", reviewReasons: "jsonb", actionError: "text" },
  StripeAction: { reason: "text", lastError: "text" },
} as const;
/** Another person's screening that named this one as its referrer: these columns only. */
const REFERRAL_COLUMNS = {
  input: "jsonb",
  reasons: "jsonb",
  monitored: "jsonb",
  contributions: "jsonb",
} as const;

/** An audit event's `after` without the person's values: the entry's value, the note. */
export function auditAfter(action: string, after: unknown): unknown {
  if (after === null || typeof after !== "object" || Array.isArray(after)) return after;
  const out = { ...(after as Record<string, unknown>) };
  const fields = action === "allowList.add" ? ["value", "note"] : ["note"];
  for (const field of fields) {
    if (typeof out[field] === "string") out[field] = ERASED;
  }
  return out;
}

export type EndUsersRepository = ReturnType<typeof createEndUsersRepository>;
