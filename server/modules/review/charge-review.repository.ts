/**
 * The only code that touches the database for the review queue's charges. A charge is open
 * while its "reviewStatus" is 'open' (set by the Stripe ingest when the merchant's rules
 * answered review); the partial index "Transaction_review_open" holds exactly those, oldest
 * charge first. The literal 'open' in each statement lets PostgreSQL match its predicate.
 * A settle and the decision events that report it are stored in one transaction.
 */
import { Prisma, type PrismaClient } from "../../db/generated/client.ts";
import type { EventOutbox } from "../webhooks/webhooks.types.ts";
import type { SettleEvents } from "./review.repository.ts";

export type ChargeFilters = { rule?: string; before?: Date };

/** Where a page starts: after a charge of the queue, or after a time (Unix seconds). */
export type ChargeKeyset = { created: number; chargeId: string } | { createdAbove: number };

export type OpenCharge = {
  id: string;
  /** The charge's creation time, Unix seconds. */
  created: number;
  email: string | null;
  riskScore: number | null;
  reasons: unknown;
  amount: number;
  currency: string;
  cardFingerprint: string | null;
};

export type SettledCharge = { id: string; userId: null; email: string | null };

/** A settled row as the UPDATE returns it: whether the charge is demo data too. */
type Returned = SettledCharge & { demo: boolean };

const settled = (rows: Returned[]): SettledCharge[] =>
  rows.map(({ id, userId, email }) => ({ id, userId, email }));

type Settle = { status: "approved" | "denied"; at: Date; by: string; note: string | null };

function filterSql(accountId: string, f: ChargeFilters) {
  return Prisma.sql`"accountId" = ${accountId} AND "reviewStatus" = 'open'
    ${f.rule ? Prisma.sql`AND "reviewReasons" @> ${JSON.stringify([{ rule: f.rule }])}::jsonb` : Prisma.empty}
    ${f.before ? Prisma.sql`AND "created" <= ${Math.floor(f.before.getTime() / 1000)}` : Prisma.empty}`;
}

function keysetSql(after?: ChargeKeyset) {
  if (!after) return Prisma.empty;
  return "chargeId" in after
    ? Prisma.sql`AND ("created", "chargeId") > (${after.created}, ${after.chargeId})`
    : Prisma.sql`AND "created" > ${after.createdAbove}`;
}

export function createChargeReviewRepository(prisma: PrismaClient, outbox?: EventOutbox) {
  /** The settles' events, in their transaction; demo charges report to no endpoint. */
  async function stageReal(
    tx: Parameters<EventOutbox["stage"]>[0],
    accountId: string,
    rows: Returned[],
    events?: SettleEvents,
  ) {
    const real = rows.filter((row) => !row.demo);
    if (real.length > 0 && outbox && events)
      await outbox.stage(tx, accountId, events(settled(real)));
  }
  return {
    /** Open charges oldest first, after the keyset. */
    open(
      accountId: string,
      filters: ChargeFilters,
      limit: number,
      after?: ChargeKeyset,
    ): Promise<OpenCharge[]> {
      return prisma.$queryRaw<OpenCharge[]>`
        SELECT "chargeId" AS "id", "created", "email", "riskScore", "reviewReasons" AS "reasons",
          "amount", "currency", "cardFingerprint"
        FROM "Transaction"
        WHERE ${filterSql(accountId, filters)} ${keysetSql(after)}
        ORDER BY "created", "chargeId"
        LIMIT ${limit}`;
    },

    /** Open charges, counted up to `cap`. */
    /** Open items matching the filters (none: all), counted up to `cap`. */
    async countOpen(accountId: string, cap: number, filters: ChargeFilters = {}): Promise<number> {
      const [row] = await prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM (
          SELECT 1 FROM "Transaction" WHERE ${filterSql(accountId, filters)} LIMIT ${cap}) AS open`;
      return row?.n ?? 0;
    },

    /** Settles one open charge, with its events; null when it is not open. */
    settle(
      accountId: string,
      chargeId: string,
      s: Settle,
      events?: SettleEvents,
    ): Promise<SettledCharge | null> {
      return prisma.$transaction(async (tx) => {
        const rows = await tx.$queryRaw<Returned[]>`
          UPDATE "Transaction" SET "reviewStatus" = ${s.status}, "reviewedAt" = ${s.at},
            "reviewedBy" = ${s.by}, "reviewNote" = ${s.note}, "updatedAt" = ${s.at}
          WHERE "chargeId" = ${chargeId} AND ${filterSql(accountId, {})}
          RETURNING "chargeId" AS "id", NULL::text AS "userId", "email", "demo"`;
        await stageReal(tx, accountId, rows, events);
        return settled(rows)[0] ?? null;
      });
    },

    /** Settles up to `limit` open charges that match the filters, oldest first, with their events. */
    settleMany(
      accountId: string,
      filters: ChargeFilters,
      limit: number,
      s: Settle,
      events?: SettleEvents,
    ): Promise<SettledCharge[]> {
      return prisma.$transaction(async (tx) => {
        const rows = await tx.$queryRaw<Returned[]>`
          UPDATE "Transaction" SET "reviewStatus" = ${s.status}, "reviewedAt" = ${s.at},
            "reviewedBy" = ${s.by}, "reviewNote" = ${s.note}, "updatedAt" = ${s.at}
          WHERE "accountId" = ${accountId} AND "chargeId" IN (
            SELECT "chargeId" FROM "Transaction" WHERE ${filterSql(accountId, filters)}
            ORDER BY "created", "chargeId" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
            AND "reviewStatus" = 'open'
          RETURNING "chargeId" AS "id", NULL::text AS "userId", "email", "demo"`;
        await stageReal(tx, accountId, rows, events);
        return settled(rows);
      });
    },

    find(accountId: string, chargeId: string) {
      return prisma.transaction.findUnique({
        where: { accountId_chargeId: { accountId, chargeId } },
        select: {
          chargeId: true,
          email: true,
          reviewStatus: true,
          reviewReasons: true,
          reviewedAt: true,
          reviewedBy: true,
          reviewNote: true,
        },
      });
    },
  };
}

export type ChargeReviewRepository = ReturnType<typeof createChargeReviewRepository>;
