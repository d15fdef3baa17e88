/**
 * The only code that touches Prisma for allowed origins (AllowedOrigins, one row per account)
 * and refused collects (CollectRefusal, one row per account and origin, the newest kept).
 */
import type { PrismaClient } from "../../db/generated/client.ts";

export type NewRefusal = {
  accountId: string;
  origin: string;
  reason: string;
  at: Date;
  /** Keep the account's newest this many refused origins. */
  keep: number;
};

const REFUSAL = { origin: true, reason: true, firstAt: true, lastAt: true, count: true } as const;

export function createOriginsRepository(prisma: PrismaClient) {
  return {
    async allowed(accountId: string): Promise<string[]> {
      const row = await prisma.allowedOrigins.findUnique({
        where: { accountId },
        select: { origins: true },
      });
      return row?.origins ?? [];
    },

    async save(accountId: string, origins: string[]): Promise<void> {
      await prisma.allowedOrigins.upsert({
        where: { accountId },
        create: { accountId, origins },
        update: { origins },
      });
    },

    /** Appends one origin unless it is listed already, in one statement (two clicks add it once). */
    async add(accountId: string, origin: string): Promise<void> {
      await prisma.$executeRaw`
        INSERT INTO "AllowedOrigins" ("accountId", "origins", "updatedAt")
        VALUES (${accountId}, ARRAY[${origin}]::text[], now())
        ON CONFLICT ("accountId") DO UPDATE
          SET "origins" = array_append("AllowedOrigins"."origins", ${origin}), "updatedAt" = now()
          WHERE NOT (${origin} = ANY("AllowedOrigins"."origins"))`;
    },

    /** Records a refusal (first, latest, how many) and drops the account's oldest past `keep`. */
    async recordRefusal({ accountId, origin, reason, at, keep }: NewRefusal): Promise<void> {
      await prisma.collectRefusal.upsert({
        where: { accountId_origin: { accountId, origin } },
        create: { accountId, origin, reason, firstAt: at, lastAt: at },
        update: { reason, lastAt: at, count: { increment: 1 } },
        select: { origin: true },
      });
      await prisma.$executeRaw`
        DELETE FROM "CollectRefusal" WHERE "accountId" = ${accountId} AND "origin" IN (
          SELECT "origin" FROM "CollectRefusal" WHERE "accountId" = ${accountId}
          ORDER BY "lastAt" DESC OFFSET ${keep})`;
    },

    /** The account's refused origins, newest first. */
    refusals(accountId: string) {
      return prisma.collectRefusal.findMany({
        where: { accountId },
        orderBy: { lastAt: "desc" },
        select: REFUSAL,
      });
    },

    refusal(accountId: string, origin: string) {
      return prisma.collectRefusal.findUnique({
        where: { accountId_origin: { accountId, origin } },
        select: REFUSAL,
      });
    },
  };
}

export type OriginsRepository = ReturnType<typeof createOriginsRepository>;
