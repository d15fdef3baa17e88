/** The only code that touches Prisma for a merchant's block list. */

import type { Blocklist } from "../../../shared/schemas/blocklist.ts";
import type { PrismaClient } from "../../db/generated/client.ts";

const toBlocklist = (row: { countries: string[]; emailProviders: string[] }): Blocklist => ({
  countries: row.countries,
  email_providers: row.emailProviders,
});

export function createBlocklistRepository(prisma: PrismaClient) {
  return {
    /** The block list, created empty on first read. */
    async findOrCreate(accountId: string): Promise<Blocklist> {
      const existing = await prisma.blocklist.findUnique({ where: { accountId } });
      if (existing) return toBlocklist(existing);
      await prisma.blocklist.createMany({
        data: [{ accountId, countries: [], emailProviders: [] }],
        skipDuplicates: true,
      });
      return toBlocklist(await prisma.blocklist.findUniqueOrThrow({ where: { accountId } }));
    },

    async save(accountId: string, blocklist: Blocklist): Promise<Blocklist> {
      const data = { countries: blocklist.countries, emailProviders: blocklist.email_providers };
      return toBlocklist(
        await prisma.blocklist.upsert({
          where: { accountId },
          create: { accountId, ...data },
          update: data,
        }),
      );
    },
  };
}

export type BlocklistRepository = ReturnType<typeof createBlocklistRepository>;
