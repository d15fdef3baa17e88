/** The only code that touches Prisma for a merchant's rules settings. */

import type { Rules } from "../../../shared/schemas/rules.ts";
import type { PrismaClient } from "../../db/generated/client.ts";

export function createRulesRepository(prisma: PrismaClient) {
  return {
    /** The stored JSON, creating the row with `defaults` on first read. */
    async findOrCreate(accountId: string, defaults: Rules): Promise<unknown> {
      const existing = await prisma.ruleSettings.findUnique({ where: { accountId } });
      if (existing) return existing.values;
      await prisma.ruleSettings.createMany({
        data: [{ accountId, values: defaults }],
        skipDuplicates: true,
      });
      const row = await prisma.ruleSettings.findUniqueOrThrow({ where: { accountId } });
      return row.values;
    },

    async save(accountId: string, values: Rules): Promise<void> {
      await prisma.ruleSettings.upsert({
        where: { accountId },
        create: { accountId, values },
        update: { values },
      });
    },
  };
}

export type RulesRepository = ReturnType<typeof createRulesRepository>;
