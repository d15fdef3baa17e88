/** The only code that touches Prisma for API keys; every query but the lookup is per account. */
import type { ApiKeyKind, PrismaClient } from "../../db/generated/client.ts";

export function createApiKeysRepository(prisma: PrismaClient) {
  return {
    create(data: {
      accountId: string;
      name: string;
      kind: ApiKeyKind;
      start: string;
      keyHash: string;
    }) {
      return prisma.apiKey.create({ data });
    },

    /** The account's keys that are not revoked, newest first. */
    list(accountId: string) {
      return prisma.apiKey.findMany({
        where: { accountId, revokedAt: null },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      });
    },

    /** Revokes one of the account's keys; false when it has no such live key. */
    async revoke(accountId: string, id: string, at: Date): Promise<boolean> {
      const { count } = await prisma.apiKey.updateMany({
        where: { id, accountId, revokedAt: null },
        data: { revokedAt: at },
      });
      return count === 1;
    },

    /** The live key with this hash, from any account (the caller is not known yet). */
    async findLiveByHash(keyHash: string) {
      return prisma.apiKey.findFirst({
        where: { keyHash, revokedAt: null },
        select: { id: true, accountId: true, kind: true },
      });
    },

    /** Every live key (of one account, or of all), as authentication keeps them in memory. */
    async listLive(accountId?: string) {
      return prisma.apiKey.findMany({
        where: { revokedAt: null, ...(accountId ? { accountId } : {}) },
        select: { id: true, accountId: true, kind: true, keyHash: true },
      });
    },

    /** Whether any merchant holds a live key (then Warden is used for screening). */
    async anyLive(): Promise<boolean> {
      return (
        (await prisma.apiKey.findFirst({ where: { revokedAt: null }, select: { id: true } })) !==
        null
      );
    },

    async touch(id: string, at: Date): Promise<void> {
      await prisma.apiKey.updateMany({ where: { id }, data: { lastUsedAt: at } });
    },
  };
}

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
