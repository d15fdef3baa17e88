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

/** How many deliveries may be in flight at once (leased), per endpoint and per account. */
export type ClaimLimits = { limit: number; perEndpoint: number; perAccount: number };

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

function failPendingOf(db: OutboxDb | PrismaClient, endpointId: string) {
  return db.webhookDelivery.updateMany({
    where: { endpointId, status: "pending" },
    data: { status: "failed", lockedUntil: null, lastError: "endpoint disabled" },
  });
}

export function createWebhooksRepository(prisma: PrismaClient) {
  return {
    /**
     * Adds the endpoint unless the account already has `max`: then null. The account's row is
     * locked while counting, so requests racing each other cannot pass the cap together.
     */
    createEndpoint(
      data: {
        accountId: string;
        url: string;
        events: string[];
        secretCipher: string;
        createdAt: Date;
      },
      max: number,
    ) {
      return prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM "Account" WHERE "id" = ${data.accountId} FOR NO KEY UPDATE`;
        const count = await tx.webhookEndpoint.count({ where: { accountId: data.accountId } });
        return count >= max ? null : tx.webhookEndpoint.create({ data });
      });
    },

    /** All of them: an account past today's cap keeps seeing (and removing) every one. */
    listEndpoints(accountId: string) {
      return prisma.webhookEndpoint.findMany({
        where: { accountId },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
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
        where: {
          accountId,
          disabledAt: null,
          events: { hasSome: [...new Set(events.map((e) => e.type))] },
        },
        select: { id: true, events: true },
      });
      const rows = deliveryRows(accountId, events, endpoints, at);
      if (rows.length > 0) await db.webhookDelivery.createMany({ data: rows });
      return rows.length;
    },

    /** The event types any of the account's endpoints subscribe to. */
    async subscribedTypes(accountId: string): Promise<string[]> {
      const rows = await prisma.webhookEndpoint.findMany({
        where: { accountId, disabledAt: null },
        select: { events: true },
      });
      return [...new Set(rows.flatMap((row) => row.events))];
    },

    endpointSecret(id: string) {
      return prisma.webhookEndpoint.findUnique({
        where: { id },
        select: { url: true, secretCipher: true, disabledAt: true },
      });
    },

    async removeEndpoint(accountId: string, id: string): Promise<boolean> {
      return (await prisma.webhookEndpoint.deleteMany({ where: { accountId, id } })).count > 0;
    },

    /**
     * Leases due deliveries to this worker, fairly: each endpoint with pending rows is visited
     * (a skip scan over the partial index, so one endpoint's thousands of due rows cost one
     * probe), and gives at most its oldest few; rows in flight anywhere (leased) count against
     * the endpoint's and its account's limits; the first row of every account comes before
     * any account's second. SKIP LOCKED lets instances share the table.
     */
    claimDue(now: Date, leaseUntil: Date, { limit, perEndpoint, perAccount }: ClaimLimits) {
      return prisma.$queryRaw<DueDelivery[]>`
        WITH RECURSIVE pending AS (
          (SELECT "endpointId" AS id FROM "WebhookDelivery" WHERE "status" = 'pending'
            ORDER BY "endpointId" LIMIT 1)
          UNION ALL
          SELECT (SELECT d."endpointId" FROM "WebhookDelivery" d
                  WHERE d."status" = 'pending' AND d."endpointId" > p.id
                  ORDER BY d."endpointId" LIMIT 1)
          FROM pending p WHERE p.id IS NOT NULL
        ),
        busy AS (
          SELECT "accountId", "endpointId", count(*) AS n FROM "WebhookDelivery"
          WHERE "lockedUntil" > ${now} AND "status" = 'pending'
          GROUP BY "accountId", "endpointId"
        ),
        due AS (
          SELECT d."id", d."accountId", d."nextAttemptAt",
            row_number() OVER (PARTITION BY d."endpointId" ORDER BY d."nextAttemptAt", d."id")
              + COALESCE((SELECT sum(b.n) FROM busy b WHERE b."endpointId" = d."endpointId"), 0)
              AS endpoint_rank
          FROM pending p
          JOIN "WebhookEndpoint" e ON e."id" = p.id AND e."disabledAt" IS NULL
          CROSS JOIN LATERAL (
            SELECT "id", "accountId", "endpointId", "nextAttemptAt" FROM "WebhookDelivery"
            WHERE "status" = 'pending' AND "endpointId" = p.id AND "nextAttemptAt" <= ${now}
              AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${now})
            ORDER BY "nextAttemptAt" LIMIT ${perEndpoint}
          ) d
        ),
        fair AS (
          SELECT "id", "nextAttemptAt",
            row_number() OVER (PARTITION BY "accountId" ORDER BY endpoint_rank, "nextAttemptAt", "id")
              + COALESCE((SELECT sum(b.n) FROM busy b WHERE b."accountId" = due."accountId"), 0)
              AS account_rank
          FROM due WHERE endpoint_rank <= ${perEndpoint}
        )
        UPDATE "WebhookDelivery" SET "lockedUntil" = ${leaseUntil}
        WHERE "id" IN (
          SELECT w."id" FROM "WebhookDelivery" w JOIN fair f ON f."id" = w."id"
          WHERE f.account_rank <= ${perAccount} AND w."status" = 'pending'
            AND (w."lockedUntil" IS NULL OR w."lockedUntil" <= ${now})
          ORDER BY f.account_rank, f."nextAttemptAt"
          LIMIT ${limit}
          FOR UPDATE OF w SKIP LOCKED)
        RETURNING "id", "accountId", "endpointId", "eventId", "eventType", "body", "attempts", "attemptLog"`;
    },

    /** Gives a lease back without an attempt (the worker stopped mid-send): due again now. */
    async release(id: string): Promise<void> {
      await prisma.webhookDelivery.updateMany({ where: { id }, data: { lockedUntil: null } });
    },

    /** A delivery succeeded: the endpoint is no longer failing (a write only if it was). */
    async endpointSucceeded(id: string): Promise<void> {
      await prisma.webhookEndpoint.updateMany({
        where: { id, failingSince: { not: null } },
        data: { failingSince: null },
      });
    },

    /** A delivery failed at `at`: since when the endpoint has been failing (null: disabled). */
    async endpointFailed(id: string, at: Date): Promise<Date | null> {
      const rows = await prisma.$queryRaw<{ failingSince: Date }[]>`
        UPDATE "WebhookEndpoint" SET "failingSince" = COALESCE("failingSince", ${at})
        WHERE "id" = ${id} AND "disabledAt" IS NULL
        RETURNING "failingSince"`;
      return rows[0]?.failingSince ?? null;
    },

    /**
     * Disables the endpoint if it is still enabled and failing since `failingSince` at the
     * latest, and gives up its pending deliveries; null when another worker did it first.
     */
    disableEndpoint(id: string, at: Date, reason: string, failingSince: Date) {
      return prisma.$transaction(async (tx) => {
        const { count } = await tx.webhookEndpoint.updateMany({
          where: { id, disabledAt: null, failingSince: { lte: failingSince } },
          data: { disabledAt: at, disabledReason: reason.slice(0, 300) },
        });
        if (count === 0) return null;
        await failPendingOf(tx, id);
        return tx.webhookEndpoint.findUnique({
          where: { id },
          select: { accountId: true, url: true, failingSince: true, disabledAt: true },
        });
      });
    },

    /** Gives up the pending deliveries of a disabled endpoint. */
    failPendingOf: (endpointId: string) => failPendingOf(prisma, endpointId),

    /** Enabled again, with a fresh start: it counts as failing from its next failure on. */
    async enableEndpoint(accountId: string, id: string): Promise<boolean> {
      const { count } = await prisma.webhookEndpoint.updateMany({
        where: { accountId, id },
        data: { disabledAt: null, disabledReason: null, failingSince: null },
      });
      return count > 0;
    },

    /** Where the account's emails go: its first user's address. */
    async ownerEmail(accountId: string): Promise<string | null> {
      const user = await prisma.user.findFirst({
        where: { accountId },
        orderBy: { createdAt: "asc" },
        select: { email: true },
      });
      return user?.email ?? null;
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
     * Deletes at most `batch` deliveries that are over (delivered, or given up on) and were
     * stored and last tried more than their account's retention before `now`
     * (Account.webhookDeliveryRetentionDays; `defaultDays` where it has none); pending ones
     * stay. The status and last try are the outbox's index. Returns how many.
     */
    purgeSettled(now: Date, defaultDays: number, batch: number): Promise<number> {
      const at = now.toISOString();
      return prisma.$executeRaw`
        DELETE FROM "WebhookDelivery" WHERE "id" IN (
          SELECT d."id" FROM "WebhookDelivery" d JOIN "Account" a ON a."id" = d."accountId"
          CROSS JOIN LATERAL (
            SELECT ${at}::timestamp - make_interval(
              days => COALESCE(a."webhookDeliveryRetentionDays", ${defaultDays}::int)) AS "cutoff"
          ) AS c
          WHERE d."status" IN ('delivered', 'failed')
            -- Every retention is at least a day: the range the (status, nextAttemptAt) index reads.
            AND d."nextAttemptAt" < ${at}::timestamp - interval '1 day'
            AND d."nextAttemptAt" < c."cutoff" AND d."createdAt" < c."cutoff"
          LIMIT ${batch}
        )`;
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
