/** The only code that touches Prisma for a merchant's template flags. */

import type { Templates } from "../../../shared/schemas/templates.ts";
import type { PrismaClient } from "../../db/generated/client.ts";

export function createTemplatesRepository(prisma: PrismaClient) {
  return {
    /** The stored JSON, creating the row with `defaults` on first read. */
    async findOrCreate(accountId: string, defaults: Templates): Promise<unknown> {
      const existing = await prisma.templateSettings.findUnique({ where: { accountId } });
      if (existing) return existing.values;
      await prisma.templateSettings.createMany({
        data: [{ accountId, values: defaults }],
        skipDuplicates: true,
      });
      const row = await prisma.templateSettings.findUniqueOrThrow({ where: { accountId } });
      return row.values;
    },

    async save(accountId: string, values: Templates): Promise<void> {
      await prisma.templateSettings.upsert({
        where: { accountId },
        create: { accountId, values },
        update: { values },
      });
    },
  };
}

export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
