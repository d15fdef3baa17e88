/**
 * The only code that touches Prisma for ingesting Stripe events: the inbox, the charge rows
 * and the actions they decide.
 * Ingestion runs inside one database transaction: the event row, the charge row and any
 * action are committed together or not at all.
 */
import type { Prisma, PrismaClient } from "../../../db/generated/client.ts";
import type { TransactionRow } from "../../transactions/transactions.repository.ts";

type Tx = Prisma.TransactionClient;
export type TransactionUpdate = Omit<
  Prisma.TransactionUncheckedUpdateInput,
  "accountId" | "chargeId" | "updatedAt"
>;

export function createStripeEventsRepository(prisma: PrismaClient) {
  const inTx = {
    /** Stores the event id; false when this account already has it (a duplicate delivery). */
    async recordEvent(
      tx: Tx,
      data: {
        accountId: string;
        eventId: string;
        type: string;
        created: number;
        status: string;
        chargeId: string | null;
      },
    ): Promise<boolean> {
      const { count } = await tx.stripeEvent.createMany({ data: [data], skipDuplicates: true });
      return count === 1;
    },

    /** The charge's row, created empty if new, locked until the transaction ends. */
    async lockTransaction(tx: Tx, accountId: string, chargeId: string): Promise<TransactionRow> {
      await tx.$executeRaw`
        INSERT INTO "Transaction" ("accountId", "chargeId", "updatedAt")
        VALUES (${accountId}, ${chargeId}, now())
        ON CONFLICT ("accountId", "chargeId") DO NOTHING`;
      const rows = await tx.$queryRaw<TransactionRow[]>`
        SELECT * FROM "Transaction"
        WHERE "accountId" = ${accountId} AND "chargeId" = ${chargeId} FOR UPDATE`;
      const row = rows[0];
      if (!row) throw new Error(`transaction ${chargeId} vanished inside its own lock`);
      return row;
    },

    async saveTransaction(tx: Tx, accountId: string, chargeId: string, data: TransactionUpdate) {
      await tx.transaction.update({
        where: { accountId_chargeId: { accountId, chargeId } },
        data,
      });
    },

    /** Records a decided action once; its idempotency key makes a second decision a no-op. */
    async createAction(
      tx: Tx,
      data: {
        accountId: string;
        chargeId: string;
        kind: "refund" | "cancel";
        targetId: string;
        idempotencyKey: string;
        reason: string;
        simulated: boolean;
        nextAttemptAt: Date;
      },
    ): Promise<boolean> {
      const { count } = await tx.stripeAction.createMany({ data: [data], skipDuplicates: true });
      return count === 1;
    },
  };

  return {
    ...inTx,

    transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      return prisma.$transaction(work, { timeout: 15_000, maxWait: 15_000 });
    },

    findAccountByEndpoint(webhookEndpointId: string) {
      return prisma.account.findUnique({ where: { webhookEndpointId }, select: { id: true } });
    },

    findEndpointId(accountId: string) {
      return prisma.account.findUniqueOrThrow({
        where: { id: accountId },
        select: { webhookEndpointId: true },
      });
    },

    /**
     * For rule_cc_reuse on a charge: other emails that paid with this card since `since`, and
     * other cards this email paid with since `hourAgo` (Unix seconds).
     */
    async cardUsage(
      accountId: string,
      charge: { chargeId: string; card: string; email: string | null },
      since: number,
      hourAgo: number,
    ): Promise<{ otherEmails: number; otherCards: number }> {
      const email = charge.email ?? "";
      const rows = await prisma.$queryRaw<{ otherEmails: number; otherCards: number }[]>`
        SELECT
          count(DISTINCT "email") FILTER (
            WHERE "cardFingerprint" = ${charge.card} AND "email" <> ${email} AND "created" >= ${since}
          )::int AS "otherEmails",
          count(DISTINCT "cardFingerprint") FILTER (
            WHERE "email" = ${email} AND "cardFingerprint" <> ${charge.card} AND "created" >= ${hourAgo}
          )::int AS "otherCards"
        FROM "Transaction"
        WHERE "accountId" = ${accountId} AND "chargeId" <> ${charge.chargeId}
          AND ("cardFingerprint" = ${charge.card} OR "email" = ${email})`;
      return {
        otherEmails: Number(rows[0]?.otherEmails ?? 0),
        otherCards: Number(rows[0]?.otherCards ?? 0),
      };
    },

    findTransaction(accountId: string, chargeId: string) {
      return prisma.transaction.findUnique({
        where: { accountId_chargeId: { accountId, chargeId } },
      });
    },
  };
}

export type StripeEventsRepository = ReturnType<typeof createStripeEventsRepository>;
