/** The only code that touches the database for decision webhook endpoints and deliveries. */
import type { Prisma, PrismaClient } from "../../db/generated/client.ts";

export type Attempt = { at: string; status: number | null; error: string | null; ms: number };

export type DueDelivery = {
  id: string;
  accountId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  body: string;
  attempts: number;
  attemptLog: Attempt[];
};

export function createWebhooksRepository(prisma: PrismaClient) {
  return {
    createEndpoint(data: {
      accountId: string;
      url: string;
      events: string[];
      secretCipher: string;
      createdAt: Date;
    }) {
      return prisma.webhookEndpoint.create({ data });
    },

    listEndpoints(accountId: string) {
      return prisma.webhookEndpoint.findMany({
        where: { accountId },
        orderBy: { createdAt: "asc" },
        take: 100,
      });
    },

    /** The endpoints of the account that want this event type. */
    subscribed(accountId: string, type: string) {
      return prisma.webhookEndpoint.findMany({
        where: { accountId, events: { has: type } },
        select: { id: true },
      });
    },

    endpointSecret(id: string) {
      return prisma.webhookEndpoint.findUnique({
        where: { id },
        select: { url: true, secretCipher: true },
      });
    },

    async removeEndpoint(accountId: string, id: string): Promise<boolean> {
      return (await prisma.webhookEndpoint.deleteMany({ where: { accountId, id } })).count > 0;
    },

    enqueue(
      rows: {
        accountId: string;
        endpointId: string;
        eventId: string;
        eventType: string;
        body: string;
      }[],
      now: Date,
    ) {
      return prisma.webhookDelivery.createMany({
        data: rows.map((row) => ({ ...row, nextAttemptAt: now, createdAt: now })),
      });
    },

    /** Leases due deliveries to this worker; SKIP LOCKED lets instances share the table. */
    claimDue(now: Date, leaseUntil: Date, limit: number) {
      return prisma.$queryRaw<DueDelivery[]>`
        UPDATE "WebhookDelivery" SET "lockedUntil" = ${leaseUntil}
        WHERE "id" IN (
          SELECT "id" FROM "WebhookDelivery"
          WHERE "status" = 'pending' AND "nextAttemptAt" <= ${now}
            AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${now})
          ORDER BY "nextAttemptAt"
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING "id", "accountId", "endpointId", "eventId", "eventType", "body", "attempts", "attemptLog"`;
    },

    record(
      id: string,
      data: {
        status: "pending" | "delivered" | "failed";
        attempts: number;
        log: Attempt[];
        nextAttemptAt: Date;
        deliveredAt: Date | null;
      },
    ) {
      const last = data.log.at(-1);
      return prisma.webhookDelivery.updateMany({
        where: { id },
        data: {
          status: data.status,
          attempts: data.attempts,
          attemptLog: data.log as unknown as Prisma.InputJsonValue,
          nextAttemptAt: data.nextAttemptAt,
          lockedUntil: null,
          lastStatus: last?.status ?? null,
          lastError: last?.error ?? null,
          deliveredAt: data.deliveredAt,
        },
      });
    },

    listDeliveries(accountId: string, limit: number) {
      return prisma.webhookDelivery.findMany({
        where: { accountId },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: limit,
        include: { endpoint: { select: { url: true } } },
      });
    },

    /**
     * Deletes deliveries that are over (delivered, or given up on) and were stored and last
     * tried before `before`; pending ones stay. The status and last try are the outbox's index.
     */
    async purgeSettled(before: Date): Promise<number> {
      const { count } = await prisma.webhookDelivery.deleteMany({
        where: {
          status: { in: ["delivered", "failed"] },
          nextAttemptAt: { lt: before },
          createdAt: { lt: before },
        },
      });
      return count;
    },

    /** Due again now, whatever its state; the attempts so far stay in the log. */
    async resend(accountId: string, id: string, now: Date): Promise<boolean> {
      const { count } = await prisma.webhookDelivery.updateMany({
        where: { accountId, id },
        data: { status: "pending", nextAttemptAt: now, lockedUntil: null },
      });
      return count > 0;
    },
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
