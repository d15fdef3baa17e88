/**
 * The only code that touches Prisma for the outbox of Stripe actions: claiming due actions
 * under a lease, and finishing them together with the charge they are about.
 */
import type { PrismaClient, StripeAction } from "../../../db/generated/client.ts";

export type ActionOutcome =
  | { status: "done"; stripeObjectId: string | null }
  | { status: "failed"; error: string }
  | { status: "pending"; error: string; nextAttemptAt: Date };

export function createStripeActionsRepository(prisma: PrismaClient) {
  return {
    /**
     * Claims up to `limit` due actions for this worker for `leaseMs`, skipping rows another
     * instance holds, so two servers never call Stripe for the same action at once.
     */
    async claimDueActions(now: Date, leaseMs: number, limit: number): Promise<StripeAction[]> {
      const lease = new Date(now.getTime() + leaseMs);
      return prisma.$queryRaw<StripeAction[]>`
        UPDATE "StripeAction" SET "lockedUntil" = ${lease}, "attempts" = "attempts" + 1
        WHERE "id" IN (
          SELECT "id" FROM "StripeAction"
          WHERE "status" = 'pending' AND "nextAttemptAt" <= ${now}
            AND ("lockedUntil" IS NULL OR "lockedUntil" < ${now})
          ORDER BY "nextAttemptAt" LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING *`;
    },

    /**
     * Ends an action and mirrors its state on the charge, together. A simulated action that is
     * done changes the charge as Stripe's own refund would (charge.refunded): refunded in full.
     */
    async finishAction(action: StripeAction, outcome: ActionOutcome): Promise<void> {
      const error = outcome.status === "done" ? null : outcome.error;
      const done = outcome.status === "done";
      await prisma.$transaction(async (tx) => {
        await tx.stripeAction.update({
          where: { id: action.id },
          data: {
            status: outcome.status,
            lastError: error,
            lockedUntil: null,
            ...(done ? { stripeObjectId: outcome.stripeObjectId } : {}),
            ...(outcome.status === "pending" ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
          },
        });
        await tx.transaction.updateMany({
          where: { accountId: action.accountId, chargeId: action.chargeId },
          data: {
            actionStatus: outcome.status,
            actionError: error,
            ...(done && action.kind === "refund" ? { refunded: true } : {}),
          },
        });
        if (done && action.simulated) {
          await tx.$executeRaw`
            UPDATE "Transaction" SET "amountRefunded" = "amount", "refunded" = true
            WHERE "accountId" = ${action.accountId} AND "chargeId" = ${action.chargeId}`;
        }
      });
    },
  };
}

export type StripeActionsRepository = ReturnType<typeof createStripeActionsRepository>;
