/** The only code that touches the database for decision webhook endpoints and deliveries. */
import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "../../db/generated/client.ts";
import type { DecisionEvent, OutboxDb } from "./webhooks.types.ts";

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

type Endpoint = { id: string; events: string[] };

/**
 * The deliveries of `events`: one per endpoint that wants the event's type, each event with
 * its own id (the same for every endpoint and every retry) and its body as it will be sent.
 */
export function deliveryRows(
  accountId: string,
  events: readonly DecisionEvent[],
  endpoints: readonly Endpoint[],
  at: Date,
  newEventId = () => `evt_${randomUUID().replaceAll("-", "")}`,
) {
  const created = Math.floor(at.getTime() / 1000);
  return events.flatMap(({ type, data }) => {
    const wanting = endpoints.filter((endpoint) => endpoint.events.includes(type));
    if (wanting.length === 0) return [];
    const eventId = newEventId();
    const body = JSON.stringify({ id: eventId, type, created, data });
    return wanting.map((endpoint) => ({
      accountId,
      endpointId: endpoint.id,
      eventId,
      eventType: type,
      body,
      nextAttemptAt: at,
      createdAt: at,
    }));
  });
}

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

    /**
     * Stores the deliveries of `events` for the account's endpoints that want them, on `db`:
     * a transaction's client, to commit them with the write they report. How many it stored.
     */
    async stage(
      accountId: string,
      events: readonly DecisionEvent[],
      at: Date,
      db: OutboxDb = prisma,
    ): Promise<number> {
      if (events.length === 0) return 0;
      const endpoints = await db.webhookEndpoint.findMany({
        where: { accountId, events: { hasSome: [...new Set(events.map((e) => e.type))] } },
        select: { id: true, events: true },
      });
      const rows = deliveryRows(accountId, events, endpoints, at);
      if (rows.length > 0) await db.webhookDelivery.createMany({ data: rows });
      return rows.length;
    },

    /** The event types any of the account's endpoints subscribe to. */
    async subscribedTypes(accountId: string): Promise<string[]> {
      const rows = await prisma.webhookEndpoint.findMany({
        where: { accountId },
        select: { events: true },
      });
      return [...new Set(rows.flatMap((row) => row.events))];
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
