/**
 * The only code that touches Prisma for the outbox of Stripe actions: claiming due actions
 * under a lease, and finishing them together with the charge they are about. Every finish
 * checks that the lease it was claimed with is still held, so a worker that lost its lease
 * (it ran too long, another instance claimed the action) never overwrites the other's result.
 * An action done closes its charge's open review (denied by "rule") in the same statement,
 * and stores its decision events, when asked, in the same transaction.
 */
import type { PrismaClient, StripeAction } from "../../../db/generated/client.ts";
import type { OutboxDb } from "../../webhooks/webhooks.types.ts";

export type ActionOutcome =
  | { status: "done"; stripeObjectId: string | null }
  | { status: "failed"; error: string }
  | { status: "pending" | "needs_attention"; error: string; nextAttemptAt: Date };

/** The refund that replaces a cancel which lost the race with a capture. */
export type FollowUpRefund = { idempotencyKey: string; note: string; dueAt: Date };

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** What finishing an action did besides: the charge's review it closed (its email), if any. */
export type Finished = { closedReview: { email: string | null; by: string } | null };

/** The reviewer a rule's refund or cancel names when it closes a charge's open review. */
export const RULE_REVIEWER = "rule";

export function createStripeActionsRepository(prisma: PrismaClient) {
  /** Ends the action if this worker still holds the lease it claimed it with. */
  async function release(tx: Tx, action: StripeAction, data: object): Promise<boolean> {
    const { count } = await tx.stripeAction.updateMany({
      where: { id: action.id, lockedUntil: action.lockedUntil },
      data: { ...data, lockedUntil: null },
    });
    return count === 1;
  }

  return {
    /**
     * Claims up to `limit` due actions for this worker for `leaseMs`, skipping rows another
     * instance holds, so two servers never call Stripe for the same action at once. Actions
     * that need attention are due again when their (long) retry time comes or a key is saved.
     */
    async claimDueActions(now: Date, leaseMs: number, limit: number): Promise<StripeAction[]> {
      const lease = new Date(now.getTime() + leaseMs);
      return prisma.$queryRaw<StripeAction[]>`
        UPDATE "StripeAction" SET "lockedUntil" = ${lease}, "attempts" = "attempts" + 1
        WHERE "id" IN (
          SELECT "id" FROM "StripeAction"
          WHERE "status" IN ('pending', 'needs_attention') AND "nextAttemptAt" <= ${now}
            AND ("lockedUntil" IS NULL OR "lockedUntil" < ${now})
          ORDER BY "nextAttemptAt" LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING *`;
    },

    /**
     * Ends an action and mirrors its state on the charge, together; false (and nothing
     * written) when the lease was lost. A simulated action that is done changes the charge as
     * Stripe's own refund would (charge.refunded): refunded in full. An action done also
     * closes the charge's open review, denied by "rule" with the rule's reason as its note:
     * the money it asked about is back with the customer (a failed action leaves it open for a
     * person). One statement, so one round trip and atomic by itself: as an interactive Prisma
     * transaction (BEGIN, two updates, COMMIT) it was ~10% of the server's CPU in the webhook
     * benchmark. Only with `stage` (an endpoint wants the action's events) is it a
     * transaction, and `stage` stores the events on it, so they commit with the action.
     */
    async finishAction(
      action: StripeAction,
      outcome: ActionOutcome,
      stage?: (db: OutboxDb, finished: Finished) => Promise<void>,
    ): Promise<boolean> {
      const done = outcome.status === "done";
      const error = done ? null : outcome.error;
      const objectId = done ? outcome.stripeObjectId : null;
      const nextAttemptAt = "nextAttemptAt" in outcome ? outcome.nextAttemptAt : null;
      const refunded = done && action.kind === "refund";
      const simulated = done && action.simulated;
      const finish = async (db: OutboxDb | PrismaClient) => {
        // `closing` locks the charge's row while its review is open: a person's settle racing
        // this one is waited for and then seen, so the review is closed (and reported) once.
        const [row] = await db.$queryRaw<{ held: number; closed: boolean; email: string | null }[]>`
          WITH released AS (
            UPDATE "StripeAction" SET
              "status" = ${outcome.status}::"StripeActionStatus",
              "lastError" = ${error},
              "stripeObjectId" = CASE WHEN ${done} THEN ${objectId} ELSE "stripeObjectId" END,
              "nextAttemptAt" = COALESCE(${nextAttemptAt}, "nextAttemptAt"),
              "lockedUntil" = NULL,
              "updatedAt" = now()
            WHERE "id" = ${action.id} AND "lockedUntil" = ${action.lockedUntil}
            RETURNING "accountId", "chargeId"
          ), closing AS (
            SELECT t."chargeId", t."email" FROM "Transaction" AS t, released
            WHERE ${done} AND t."accountId" = released."accountId"
              AND t."chargeId" = released."chargeId" AND t."reviewStatus" = 'open'
            FOR UPDATE OF t
          ), mirrored AS (
            UPDATE "Transaction" AS t SET
              "actionStatus" = ${outcome.status},
              "actionError" = ${error},
              "refunded" = t."refunded" OR ${refunded} OR ${simulated},
              "amountRefunded" = CASE WHEN ${simulated} THEN t."amount" ELSE t."amountRefunded" END,
              "reviewStatus" = CASE WHEN closing."chargeId" IS NULL THEN t."reviewStatus"
                ELSE 'denied' END,
              "reviewedAt" = CASE WHEN closing."chargeId" IS NULL THEN t."reviewedAt" ELSE now() END,
              "reviewedBy" = CASE WHEN closing."chargeId" IS NULL THEN t."reviewedBy"
                ELSE ${RULE_REVIEWER} END,
              "reviewNote" = CASE WHEN closing."chargeId" IS NULL THEN t."reviewNote"
                ELSE ${action.reason} END,
              "updatedAt" = now()
            FROM released LEFT JOIN closing ON true
            WHERE t."accountId" = released."accountId" AND t."chargeId" = released."chargeId"
          )
          SELECT (SELECT count(*) FROM released)::int AS held,
            EXISTS (SELECT 1 FROM closing) AS closed, (SELECT "email" FROM closing) AS "email"`;
        return {
          held: Number(row?.held ?? 0) === 1,
          finished: { closedReview: row?.closed ? { email: row.email, by: RULE_REVIEWER } : null },
        };
      };
      if (!stage) return (await finish(prisma)).held;
      return prisma.$transaction(async (tx) => {
        const { held, finished } = await finish(tx);
        if (held) await stage(tx, finished);
        return held;
      });
    },

    /**
     * Ends a cancel that Stripe could not do because the payment was captured meanwhile, and
     * records the refund that takes its place (its own idempotency key), due at once.
     */
    async replaceWithRefund(action: StripeAction, refund: FollowUpRefund): Promise<boolean> {
      return prisma.$transaction(async (tx) => {
        const held = await release(tx, action, { status: "done", lastError: refund.note });
        if (!held) return false;
        await tx.stripeAction.createMany({
          data: [
            {
              accountId: action.accountId,
              chargeId: action.chargeId,
              kind: "refund",
              targetId: action.chargeId,
              idempotencyKey: refund.idempotencyKey,
              reason: action.reason,
              simulated: action.simulated,
              nextAttemptAt: refund.dueAt,
            },
          ],
          skipDuplicates: true,
        });
        await tx.transaction.updateMany({
          where: { accountId: action.accountId, chargeId: action.chargeId },
          data: { actionKind: "refund", actionStatus: "pending", actionError: null },
        });
        return true;
      });
    },

    /** Makes the account's actions that wait for a working key due now; returns how many. */
    async resumeWaiting(accountId: string, now: Date): Promise<number> {
      const { count } = await prisma.stripeAction.updateMany({
        where: { accountId, status: "needs_attention" },
        data: { nextAttemptAt: now },
      });
      return count;
    },

    /** How many actions are in each state, for the metrics. */
    async countByStatus(): Promise<Record<string, number>> {
      const rows = await prisma.stripeAction.groupBy({ by: ["status"], _count: { _all: true } });
      return Object.fromEntries(rows.map((row) => [row.status, row._count._all]));
    },
  };
}

export type StripeActionsRepository = ReturnType<typeof createStripeActionsRepository>;
