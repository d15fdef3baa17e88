/**
 * The only code that touches Prisma for the browser collector's tokens: each holds what
 * warden.js collected (stored in SignalToken.signals) until a screening consumes it.
 */
import type { Prisma, PrismaClient } from "../../db/generated/client.ts";

/** Evicting a key's oldest tokens past its cap runs on one insert in this many, per key. */
const EVICT_EVERY = 64;

export type NewCollectorToken = {
  accountId: string;
  apiKeyId: string;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
  origin: string;
  collectIp: string;
  /** What warden.js collected, with the collect request's headers. */
  collected: Prisma.InputJsonValue;
  /** Keep at most this many of the key's tokens, the newest. */
  keep: number;
};

export function createCollectorTokensRepository(prisma: PrismaClient) {
  const inserts = new Map<string, number>();
  return {
    /**
     * Stores a token; one insert in EVICT_EVERY per key (and the first) also deletes the key's
     * tokens past the newest `keep`, through the (apiKeyId, createdAt) index. A key so holds
     * at most keep + EVICT_EVERY tokens per instance writing them.
     */
    async create({ keep, collected, ...data }: NewCollectorToken): Promise<void> {
      await prisma.signalToken.create({
        data: { ...data, signals: collected },
        select: { id: true },
      });
      const count = inserts.get(data.apiKeyId) ?? 0;
      if (inserts.size > 100_000) inserts.clear();
      inserts.set(data.apiKeyId, count + 1);
      if (count % EVICT_EVERY !== 0) return;
      await prisma.$executeRaw`
        DELETE FROM "SignalToken" WHERE "id" IN (
          SELECT "id" FROM "SignalToken" WHERE "apiKeyId" = ${data.apiKeyId}
          ORDER BY "createdAt" DESC OFFSET ${keep})`;
    },

    /**
     * Consumes the account's token when it is unused and unexpired, in one UPDATE: of two
     * screenings racing with the same token, exactly one gets the row back.
     */
    async consume(accountId: string, tokenHash: string, at: Date) {
      const [row] = await prisma.signalToken.updateManyAndReturn({
        where: { tokenHash, accountId, consumedAt: null, expiresAt: { gt: at } },
        data: { consumedAt: at },
        select: { origin: true, collectIp: true, signals: true },
      });
      return row ?? null;
    },

    /** Why a token could not be consumed: what is known about it, if it is this account's. */
    find(accountId: string, tokenHash: string) {
      return prisma.signalToken.findFirst({
        where: { tokenHash, accountId },
        select: { consumedAt: true, expiresAt: true },
      });
    },

    /**
     * Deletes at most `batch` tokens that expired more than their account's retention before
     * `now` (Account.collectorRetentionDays; `defaultDays` where it has none); returns how many.
     */
    purgeExpired(now: Date, defaultDays: number, batch: number): Promise<number> {
      return prisma.$executeRaw`
        DELETE FROM "SignalToken" WHERE "id" IN (
          SELECT t."id" FROM "SignalToken" t JOIN "Account" a ON a."id" = t."accountId"
          WHERE t."expiresAt" < ${now.toISOString()}::timestamp
            - make_interval(days => COALESCE(a."collectorRetentionDays", ${defaultDays}::int))
          LIMIT ${batch}
        )`;
    },
  };
}

export type CollectorTokensRepository = ReturnType<typeof createCollectorTokensRepository>;
