/**
 * The only code that touches the database for an end user's data rights (decision 029). Rows
 * are found by exact, typed matches on the columns that hold a person (personal-columns.ts),
 * and only those rows change: their personal fields are cleared, and their text and JSON are
 * edited as values (scrub.ts), never as the text of a whole column. Configuration, enums,
 * statuses and sealed secrets are never touched. One transaction, in bounded statements.
 */
import { Prisma, type PrismaClient } from "../../db/generated/client.ts";
import type { EventOutbox } from "../webhooks/webhooks.types.ts";
import { eraseEndUser } from "./erasure.repository.ts";
import {
  allowEntriesOf,
  arr,
  auditsOf,
  type Counts,
  count,
  countsOf,
  type Db,
  deliveriesAbout,
  folded,
  identityKinds,
  ids,
  labelsOf,
  tokensOf,
} from "./person-rows.repository.ts";
import type { PersonValues } from "./scrub.ts";

export type { Counts, PersonValues };

/** The most spellings or devices a widening offers. */
const MAX_EXPANDED = 100;

export function createEndUsersRepository(prisma: PrismaClient, outbox?: EventOutbox) {
  return {
    /** Erases the person (erasure.repository.ts eraseEndUser). */
    erase: eraseEndUser.bind(null, { prisma, outbox }),

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
      const counts = countsOf(found, { labels, allowEntries, tokens, deliveries, audits }, kinds);
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
  };
}

export type EndUsersRepository = ReturnType<typeof createEndUsersRepository>;
