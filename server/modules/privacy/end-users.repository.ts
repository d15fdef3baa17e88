/**
 * The only code that touches the database for an end user's data rights (decision 029): find
 * the person's rows in one account, read them for an export, and erase them in one
 * transaction that also rewrites the audit log's mentions (the guard lets it only with
 * warden.erasure on) and stores the `end_user.erased` event for the merchant's endpoints.
 */
import { Prisma, type PrismaClient } from "../../db/generated/client.ts";
import type { DecisionEvent, EventOutbox } from "../webhooks/webhooks.types.ts";
import { countMatches, matchIds, sweep } from "./erasure-sweep.ts";

/** The person's values, once expanded (end-users.service.ts): all lowercase emails. */
export type PersonValues = {
  emails: string[];
  userIds: string[];
  devices: string[];
  ips: string[];
};

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

const MAX_EXPANDED = 100;

type Db = Prisma.TransactionClient;

/** The allow-list values naming the person: an IP also as its one-address range. */
function allowValues(v: PersonValues) {
  const cidrs = v.ips.flatMap((ip) => [ip, `${ip}/${ip.includes(":") ? 128 : 32}`]);
  return Prisma.sql`(
    ("kind" = 'email' AND lower("value") = ANY(${v.emails}::text[]))
    OR ("kind" = 'user_id' AND "value" = ANY(${v.userIds}::text[]))
    OR ("kind" = 'device' AND "value" = ANY(${v.devices}::text[]))
    OR ("kind" = 'ip_cidr' AND "value" = ANY(${cidrs}::text[])))`;
}

const screeningsOf = (accountId: string, v: PersonValues) => Prisma.sql`
  "accountId" = ${accountId} AND (
    lower("email") = ANY(${v.emails}::text[])
    OR "userId" = ANY(${v.userIds}::text[])
    OR "ip" = ANY(${v.ips}::text[])
    OR "collectIp" = ANY(${v.ips}::text[])
    OR "input"->>'device_id' = ANY(${v.devices}::text[])
    OR "signals"->>'device_id' = ANY(${v.devices}::text[]))`;

const chargesOf = (accountId: string, v: PersonValues) => Prisma.sql`
  "accountId" = ${accountId} AND lower("email") = ANY(${v.emails}::text[])`;

const tokensOf = (accountId: string, v: PersonValues) => Prisma.sql`
  "accountId" = ${accountId} AND (
    "collectIp" = ANY(${v.ips}::text[]) OR "signals"->>'device_id' = ANY(${v.devices}::text[]))`;

const labelsOf = (accountId: string, screenings: string[], charges: string[]) => Prisma.sql`
  "accountId" = ${accountId} AND (
    ("subjectKind" = 'screening' AND "subjectId" = ANY(${screenings}::text[]))
    OR ("subjectKind" = 'charge' AND "subjectId" = ANY(${charges}::text[])))`;

const limitOf = (limit: number | null) =>
  limit === null ? Prisma.empty : Prisma.sql`LIMIT ${limit}`;

/** Retried once more on a deadlock or a serialization failure between two erasures. */
const RETRIED = new Set(["40P01", "40001"]);
function retryable(error: unknown): boolean {
  const text = String((error as { message?: string })?.message ?? error);
  return [...RETRIED].some((code) => text.includes(code)) || /deadlock/i.test(text);
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
    const rows = await db.$queryRaw<{ kind: string; n: number }[]>`
      SELECT "kind", count(*)::int AS "n" FROM "ScreeningIdentity"
      WHERE "accountId" = ${accountId} AND "screeningId" = ANY(${screenings}::text[])
      GROUP BY "kind" ORDER BY "kind"`;
    return Object.fromEntries(rows.map((row) => [row.kind, row.n]));
  }

  const sum = (kinds: Record<string, number>) =>
    Object.values(kinds).reduce((total, n) => total + n, 0);

  return {
    /**
     * The emails and user ids of the screenings that carried any of `emails` or `userIds`:
     * the same person's (decision 029). Once, and never through an IP or a device.
     */
    async alsoKnownAs(accountId: string, emails: string[], userIds: string[]) {
      if (emails.length === 0 && userIds.length === 0) return { emails: [], userIds: [] };
      const rows = await prisma.$queryRaw<{ email: string | null; userId: string | null }[]>`
        SELECT DISTINCT lower("email") AS "email", "userId" FROM "Screening"
        WHERE "accountId" = ${accountId}
          AND (lower("email") = ANY(${emails}::text[]) OR "userId" = ANY(${userIds}::text[]))
        LIMIT ${MAX_EXPANDED}`;
      return {
        emails: rows.flatMap((row) => (row.email ? [row.email] : [])),
        userIds: rows.flatMap((row) => (row.userId ? [row.userId] : [])),
      };
    },

    /** How many rows of each kind hold the person (`pattern`: erasure-sweep.ts). */
    async counts(accountId: string, v: PersonValues, pattern: string) {
      const db = prisma as unknown as Db;
      const found = await ids(db, accountId, v, null);
      const [labels, allowEntries, tokens, deliveries, audits, kinds] = await Promise.all([
        db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS "n" FROM "Label"
          WHERE ${labelsOf(accountId, found.screenings, found.charges)}`,
        db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS "n" FROM "AllowEntry"
          WHERE "accountId" = ${accountId} AND ${allowValues(v)}`,
        db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS "n" FROM "SignalToken"
          WHERE ${tokensOf(accountId, v)}`,
        countMatches(db, "WebhookDelivery", accountId, pattern),
        countMatches(db, "AuditEvent", accountId, pattern),
        identityKinds(db, accountId, found.screenings),
      ]);
      const counts: Counts = {
        screenings: found.screenings.length,
        charges: found.charges.length,
        labels: labels[0]?.n ?? 0,
        allow_entries: allowEntries[0]?.n ?? 0,
        signal_tokens: tokens[0]?.n ?? 0,
        webhook_deliveries: deliveries,
        audit_events: audits,
        identities: sum(kinds),
      };
      return { counts, identityKinds: kinds };
    },

    /** The person's rows, at most `limit` of each kind, newest first. */
    async rows(accountId: string, v: PersonValues, pattern: string, limit: number) {
      const db = prisma as unknown as Db;
      const found = await ids(db, accountId, v, limit);
      const [screenings, charges, labels, allowEntries, tokens, deliveryIds, auditIds] =
        await Promise.all([
          prisma.screening.findMany({
            where: { accountId, id: { in: found.screenings } },
            orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          }),
          prisma.transaction.findMany({
            where: { accountId, chargeId: { in: found.charges } },
            orderBy: [{ created: "desc" }, { chargeId: "desc" }],
          }),
          db.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Label"
            WHERE ${labelsOf(accountId, found.screenings, found.charges)}
            ORDER BY "createdAt" DESC LIMIT ${limit}`,
          db.$queryRaw<{ id: string }[]>`SELECT "id" FROM "AllowEntry"
            WHERE "accountId" = ${accountId} AND ${allowValues(v)} LIMIT ${limit}`,
          db.$queryRaw<{ id: string }[]>`SELECT "id" FROM "SignalToken"
            WHERE ${tokensOf(accountId, v)} ORDER BY "createdAt" DESC LIMIT ${limit}`,
          matchIds(db, "WebhookDelivery", accountId, pattern, limit),
          matchIds(db, "AuditEvent", accountId, pattern, limit),
        ]);
      const inIds = (rows: { id: string }[]) => ({ in: rows.map((row) => row.id) });
      const [labelRows, allowRows, tokenRows, deliveryRows, auditRows] = await Promise.all([
        prisma.label.findMany({
          where: { accountId, id: inIds(labels) },
          orderBy: { createdAt: "desc" },
        }),
        prisma.allowEntry.findMany({
          where: { accountId, id: inIds(allowEntries) },
          orderBy: { createdAt: "desc" },
        }),
        prisma.signalToken.findMany({
          where: { accountId, id: inIds(tokens) },
          orderBy: { createdAt: "desc" },
          omit: { tokenHash: true },
        }),
        prisma.webhookDelivery.findMany({
          where: { accountId, id: { in: deliveryIds } },
          orderBy: { createdAt: "desc" },
        }),
        prisma.auditEvent.findMany({
          where: { accountId, id: { in: auditIds } },
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
     * Erases the person in one transaction: their screenings' and charges' personal fields,
     * the notes on their labels, their allow-list entries and collector tokens, then every
     * remaining mention in the account (erasure-sweep.ts), audit log included; stores the
     * `end_user.erased` event for the endpoints that want it. The counting identities stay.
     */
    async erase(
      accountId: string,
      v: PersonValues,
      pattern: string,
      eventsOf: (counts: Counts) => DecisionEvent[],
    ): Promise<{ counts: Counts; identityKinds: Record<string, number>; staged: boolean }> {
      const run = () =>
        prisma.$transaction(
          async (tx) => {
            await tx.$queryRaw`SELECT set_config('warden.erasure', 'on', true)`;
            const found = await ids(tx, accountId, v, null);
            const labels = await tx.$executeRaw`
              UPDATE "Label" SET "note" = NULL
              WHERE ${labelsOf(accountId, found.screenings, found.charges)}`;
            if (found.screenings.length > 0) {
              const kept = KEPT_INPUT_KEYS.map(
                (key) => Prisma.sql`${key}::text, "input"->${key}::text`,
              );
              await tx.$executeRaw`
                UPDATE "Screening" SET "userId" = NULL, "email" = NULL, "ip" = NULL,
                  "collectIp" = NULL, "signals" = NULL, "reviewNote" = NULL,
                  "input" = jsonb_strip_nulls(jsonb_build_object(${Prisma.join(kept)}))
                WHERE "accountId" = ${accountId} AND "id" = ANY(${found.screenings}::text[])`;
            }
            if (found.charges.length > 0) {
              await tx.$executeRaw`
                UPDATE "Transaction" SET "email" = NULL, "cardFingerprint" = NULL,
                  "reviewNote" = NULL, "personalClearedAt" = (now() AT TIME ZONE 'UTC')
                WHERE "accountId" = ${accountId} AND "chargeId" = ANY(${found.charges}::text[])`;
            }
            const allowEntries = await tx.$executeRaw`
              DELETE FROM "AllowEntry" WHERE "accountId" = ${accountId} AND ${allowValues(v)}`;
            const tokens = await tx.$executeRaw`
              DELETE FROM "SignalToken" WHERE ${tokensOf(accountId, v)}`;
            const swept = await sweep(tx, accountId, pattern);
            const kinds = await identityKinds(tx, accountId, found.screenings);
            const counts: Counts = {
              screenings: found.screenings.length,
              charges: found.charges.length,
              labels,
              allow_entries: allowEntries,
              signal_tokens: tokens,
              webhook_deliveries: swept.WebhookDelivery ?? 0,
              audit_events: swept.AuditEvent ?? 0,
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

export type EndUsersRepository = ReturnType<typeof createEndUsersRepository>;
