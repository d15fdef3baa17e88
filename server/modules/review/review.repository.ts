/**
 * The only code that touches the database for the review queue. Open items are screenings
 * with decision 'review' and no reviewStatus; the partial index "Screening_review_open" holds
 * exactly those, so the queue's first page and its count read only open rows. The literal
 * 'review' in each statement is what lets PostgreSQL match the index's predicate. A settle, the
 * decision events that report it (the outbox) and a deny's flagged marks on the screening's
 * counting rows (decision 023) are stored in one transaction.
 */
import { Prisma, type PrismaClient } from "../../db/generated/client.ts";
import type { FlagMarks } from "../links/links.service.ts";
import type { DecisionEvent, EventOutbox } from "../webhooks/webhooks.types.ts";

export type QueueFilters = { rule?: string; type?: string; before?: Date };

export type OpenRow = {
  id: string;
  createdAt: Date;
  type: string;
  userId: string | null;
  email: string | null;
  ip: string | null;
  score: number;
  reasons: unknown;
  input: unknown;
  signals: unknown;
  /** The linked accounts as stored when it was screened (decision 023); null before. */
  linked: unknown;
  /** The risk score's parts (server/engine/score.ts); null on screenings stored before it. */
  contributions: unknown;
};

/** Where a page starts: after a screening of the queue, or at a time (that time included). */
export type ScreeningKeyset = { createdAt: Date; id: string } | { createdFrom: Date };

/** An item a settle changed. */
export type SettledRow = { id: string; userId: string | null; email: string | null };

/** The decision events that report the items a settle changed (none without an outbox). */
export type SettleEvents = (rows: SettledRow[]) => DecisionEvent[];

type Settle = { status: "approved" | "denied"; at: Date; by: string; note: string | null };

/** One identity of a queued item, hashed as ScreeningIdentity stores it. */
export type IdentityProbe = { screeningId: string; kind: string; value: string; at: Date };

function filterSql(accountId: string, f: QueueFilters) {
  return Prisma.sql`"accountId" = ${accountId} AND "decision" = 'review' AND "reviewStatus" IS NULL
    ${f.rule ? Prisma.sql`AND ${f.rule} = ANY("rules")` : Prisma.empty}
    ${f.type ? Prisma.sql`AND "type" = ${f.type}` : Prisma.empty}
    ${f.before ? Prisma.sql`AND "createdAt" <= ${f.before}` : Prisma.empty}`;
}

export function createReviewRepository(
  prisma: PrismaClient,
  outbox?: EventOutbox,
  marks?: FlagMarks,
) {
  /** A settle's events, and a deny's marks, in its transaction. */
  async function alongside(
    tx: Prisma.TransactionClient,
    accountId: string,
    rows: SettledRow[],
    s: Settle,
    events?: SettleEvents,
  ) {
    if (rows.length === 0) return;
    if (outbox && events) await outbox.stage(tx, accountId, events(rows));
    if (marks && s.status === "denied") {
      await marks.mark(
        tx,
        accountId,
        rows.map((row) => row.id),
        true,
      );
    }
  }
  return {
    /** Open items oldest first, after the cursor's (time, id). */
    open(
      accountId: string,
      filters: QueueFilters,
      limit: number,
      after?: ScreeningKeyset,
    ): Promise<OpenRow[]> {
      const keyset = !after
        ? Prisma.empty
        : "id" in after
          ? Prisma.sql`AND ("createdAt", "id") > (${after.createdAt}, ${after.id})`
          : Prisma.sql`AND "createdAt" >= ${after.createdFrom}`;
      return prisma.$queryRaw<OpenRow[]>`
        SELECT "id", "createdAt", "type", "userId", "email", "ip", "score", "reasons", "input", "signals",
          "linked", "contributions"
        FROM "Screening"
        WHERE ${filterSql(accountId, filters)} ${keyset}
        ORDER BY "createdAt", "id"
        LIMIT ${limit}`;
    },

    /** Open items, counted up to `cap` (the index is scanned no further). */
    /** Open items matching the filters (none: all), counted up to `cap`. */
    async countOpen(accountId: string, cap: number, filters: QueueFilters = {}): Promise<number> {
      const [row] = await prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM (
          SELECT 1 FROM "Screening" WHERE ${filterSql(accountId, filters)} LIMIT ${cap}) AS open`;
      return row?.n ?? 0;
    },

    /**
     * For each probe: how many earlier screenings carried the same identity, and how many of
     * those are labelled fraud now (their newest label).
     */
    shared(accountId: string, probes: readonly IdentityProbe[]) {
      if (probes.length === 0) return Promise.resolve([]);
      return prisma.$queryRaw<
        { screeningId: string; kind: string; events: number; fraud: number }[]
      >`
        SELECT p."screeningId", p."kind",
          count(DISTINCT o."screeningId")::int AS "events",
          count(DISTINCT o."screeningId") FILTER (WHERE (
            SELECT l."label" FROM "Label" l
            WHERE l."accountId" = ${accountId} AND l."subjectKind" = 'screening'
              AND l."subjectId" = o."screeningId"
            ORDER BY l."createdAt" DESC, l."id" DESC LIMIT 1) = 'fraud')::int AS "fraud"
        FROM unnest(${probes.map((p) => p.screeningId)}::text[], ${probes.map((p) => p.kind)}::text[],
                    ${probes.map((p) => p.value)}::text[], ${probes.map((p) => p.at.toISOString())}::timestamp[])
             AS p("screeningId", "kind", "value", "at")
        JOIN "ScreeningIdentity" o ON o."accountId" = ${accountId} AND o."kind" = p."kind"
          AND o."value" = p."value" AND o."at" < p."at" AND o."screeningId" <> p."screeningId"
        GROUP BY p."screeningId", p."kind"`;
    },

    /** Settles one open item, with its events; null when it is not open (settled, or not a review). */
    settle(
      accountId: string,
      id: string,
      s: Settle,
      events?: SettleEvents,
    ): Promise<SettledRow | null> {
      return prisma.$transaction(async (tx) => {
        const rows = await tx.$queryRaw<SettledRow[]>`
          UPDATE "Screening" SET "reviewStatus" = ${s.status}, "reviewedAt" = ${s.at},
            "reviewedBy" = ${s.by}, "reviewNote" = ${s.note}
          WHERE "id" = ${id} AND ${filterSql(accountId, {})}
          RETURNING "id", "userId", "email"`;
        await alongside(tx, accountId, rows, s, events);
        return rows[0] ?? null;
      });
    },

    /** Settles up to `limit` open items that match the filters, oldest first, with their events. */
    settleMany(
      accountId: string,
      filters: QueueFilters,
      limit: number,
      s: Settle,
      events?: SettleEvents,
    ): Promise<SettledRow[]> {
      return prisma.$transaction(async (tx) => {
        const rows = await tx.$queryRaw<SettledRow[]>`
          UPDATE "Screening" SET "reviewStatus" = ${s.status}, "reviewedAt" = ${s.at},
            "reviewedBy" = ${s.by}, "reviewNote" = ${s.note}
          WHERE "id" IN (
            SELECT "id" FROM "Screening" WHERE ${filterSql(accountId, filters)}
            ORDER BY "createdAt", "id" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
            AND "reviewStatus" IS NULL
          RETURNING "id", "userId", "email"`;
        await alongside(tx, accountId, rows, s, events);
        return rows;
      });
    },

    find(accountId: string, id: string) {
      return prisma.screening.findFirst({ where: { accountId, id } });
    },
  };
}

export type ReviewRepository = ReturnType<typeof createReviewRepository>;
