/** The only code that touches Prisma for the transaction dashboard; every query is scoped by account. */
import type { PrismaClient } from "../../db/generated/client.ts";
import type { TransactionRow } from "../../db/rows.ts";
import type { CursorKey } from "./transaction-cursor.ts";

export type TransactionQuery = {
  accountId: string;
  limit: number;
  /** Rows strictly older than this (created, chargeId) key. */
  after?: CursorKey;
  outcome?: string;
  riskLevel?: string;
  blockedBy?: "stripe" | "custom_rule" | "none";
  chargeId?: string;
  emailPrefix?: string;
};

const ROW_FIELDS = {
  chargeId: true,
  amount: true,
  currency: true,
  email: true,
  created: true,
  outcome: true,
  outcomeReason: true,
  ruleReason: true,
  ruleKeys: true,
  riskLevel: true,
  riskScore: true,
  blockedBy: true,
  actionKind: true,
  actionStatus: true,
  actionError: true,
  livemode: true,
  paymentIntentId: true,
} as const;

/** One UTC day's charges in one currency, as the summary query groups them. */
export type DayBucket = {
  day: number;
  currency: string;
  allowed: number;
  blocked: number;
  refunded: number;
};

export function createTransactionsRepository(prisma: PrismaClient) {
  return {
    /**
     * Newest first, ordered by (created, chargeId) so rows with equal times keep one order.
     * The redundant `created <= cursor` bound lets PostgreSQL start the index scan at the
     * cursor instead of filtering its way there from the newest row.
     */
    async list(query: TransactionQuery) {
      const { after } = query;
      return prisma.transaction.findMany({
        select: ROW_FIELDS,
        where: {
          accountId: query.accountId,
          // Placeholder rows hold an early warning or dispute whose charge has not arrived yet.
          hasCharge: true,
          ...(after && {
            created: { lte: after.created },
            OR: [{ created: { lt: after.created } }, { chargeId: { lt: after.chargeId } }],
          }),
          ...(query.outcome && { outcome: query.outcome }),
          ...(query.riskLevel && { riskLevel: query.riskLevel }),
          ...(query.blockedBy && {
            blockedBy: query.blockedBy === "none" ? null : query.blockedBy,
          }),
          ...(query.chargeId && { chargeId: query.chargeId }),
          ...(query.emailPrefix && {
            // Prisma passes LIKE wildcards through; a typed % or _ means itself here.
            // Emails are stored lowercased, so a case-sensitive LIKE can use the index.
            email: { startsWith: escapeLike(query.emailPrefix.toLowerCase()) },
          }),
        },
        orderBy: [{ created: "desc" }, { chargeId: "desc" }],
        take: query.limit,
      });
    },

    /**
     * Charges per UTC day and currency for days `firstDay`..`lastDay` (days since the epoch),
     * read from the daily rollup the "Transaction" triggers keep (its shards summed), so the
     * cost follows the number of days, not the number of charges in them.
     */
    async dayBuckets(accountId: string, firstDay: number, lastDay: number): Promise<DayBucket[]> {
      return prisma.$queryRaw<DayBucket[]>`
        SELECT "day", "currency",
               sum("allowed")::int AS "allowed",
               sum("blocked")::int AS "blocked",
               sum("refunded")::float8 AS "refunded"
        FROM "TransactionDay"
        WHERE "accountId" = ${accountId} AND "day" >= ${firstDay} AND "day" <= ${lastDay}
        GROUP BY 1, 2`;
    },
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

export type TransactionsRepository = ReturnType<typeof createTransactionsRepository>;
/** The part of a row the dashboard lists. */
export type ListedTransaction = Pick<TransactionRow, keyof typeof ROW_FIELDS>;
