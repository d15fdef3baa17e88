/** The only code that touches Prisma for the browser collector's signal tokens. */
import type { Prisma, PrismaClient } from "../../db/generated/client.ts";

export type NewSignalToken = {
  accountId: string;
  apiKeyId: string;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
  origin: string;
  collectIp: string;
  signals: Prisma.InputJsonValue;
};

export function createSignalTokensRepository(prisma: PrismaClient) {
  return {
    async create(data: NewSignalToken): Promise<void> {
      await prisma.signalToken.create({ data, select: { id: true } });
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

    /** Deletes tokens that expired before `before`; returns how many. */
    async purgeExpired(before: Date): Promise<number> {
      const { count } = await prisma.signalToken.deleteMany({
        where: { expiresAt: { lt: before } },
      });
      return count;
    },
  };
}

export type SignalTokensRepository = ReturnType<typeof createSignalTokensRepository>;
