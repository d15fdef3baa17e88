/** The only code that touches Prisma to find an account from outside a session (scripts). */
import type { PrismaClient } from "../../db/generated/client.ts";

export function createAccountsRepository(prisma: PrismaClient) {
  return {
    /** The account of the user with this (lowercased) email, or null. */
    async accountIdForEmail(email: string): Promise<string | null> {
      const user = await prisma.user.findUnique({ where: { email }, select: { accountId: true } });
      return user?.accountId ?? null;
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
