/** The only code that touches Prisma for the landing-page waitlist (table Email_list). */
import type { PrismaClient } from "../../db/generated/client.ts";

export type WaitlistRow = { id: number; email: string; createdAt: Date };

export function createWaitlistRepository(prisma: PrismaClient) {
  return {
    /**
     * Inserts the email; false when it is already listed. The unique index decides, so two
     * concurrent inserts of one address store one row and the loser hears false.
     */
    async insert(email: string, createdAt: Date): Promise<boolean> {
      try {
        await prisma.waitlistEntry.create({ data: { email, createdAt } });
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === "P2002") return false;
        throw error;
      }
    },

    /** One page in insertion order, after the row with id `afterId` (keyset pagination). */
    page(afterId: number, take: number): Promise<WaitlistRow[]> {
      return prisma.waitlistEntry.findMany({
        where: { id: { gt: afterId } },
        orderBy: { id: "asc" },
        take,
      });
    },
  };
}

export type WaitlistRepository = ReturnType<typeof createWaitlistRepository>;
