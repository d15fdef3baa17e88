/** The only code that touches Prisma for queued account emails. */
import type { PrismaClient } from "../../db/generated/client.ts";

export type QueuedEmail = {
  id: string;
  to: string;
  subject: string;
  text: string;
  attempts: number;
};

export function createOutboxRepository(prisma: PrismaClient) {
  return {
    enqueue(mail: { to: string; subject: string; text: string }, now: Date) {
      return prisma.outboxEmail.create({ data: { ...mail, nextAttemptAt: now, createdAt: now } });
    },

    /**
     * Leases up to `limit` due emails to this worker until `leaseUntil`; SKIP LOCKED lets several
     * instances share the table without sending one email twice. A never-tried email is due at
     * once whatever the clock says.
     */
    claimDue(now: Date, leaseUntil: Date, limit: number) {
      return prisma.$queryRaw<QueuedEmail[]>`
        UPDATE "OutboxEmail" SET "lockedUntil" = ${leaseUntil}
        WHERE "id" IN (
          SELECT "id" FROM "OutboxEmail"
          WHERE "failedAt" IS NULL
            AND ("attempts" = 0 OR "nextAttemptAt" <= ${now})
            AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${now})
          ORDER BY "createdAt"
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING "id", "to", "subject", "text", "attempts"`;
    },

    /** Sent: the row goes, with the one-time link in its text. */
    markSent(id: string) {
      return prisma.outboxEmail.deleteMany({ where: { id } });
    },

    markFailed(
      id: string,
      data: { attempts: number; nextAttemptAt: Date; error: string; gaveUp: Date | null },
    ) {
      return prisma.outboxEmail.updateMany({
        where: { id },
        data: {
          attempts: data.attempts,
          nextAttemptAt: data.nextAttemptAt,
          lockedUntil: null,
          lastError: data.error,
          failedAt: data.gaveUp,
        },
      });
    },
  };
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
