/** The only code that touches Prisma to find an account, or its name, outside a team change. */
import { ACCOUNT_NAME } from "../../db/account-name.ts";
import type { PrismaClient } from "../../db/generated/client.ts";

export function createAccountsRepository(prisma: PrismaClient) {
  return {
    /** The account of the user with this (lowercased) email, or null. */
    async accountIdForEmail(email: string): Promise<string | null> {
      const user = await prisma.user.findUnique({ where: { email }, select: { accountId: true } });
      return user?.accountId ?? null;
    },

    /** What names the account (db/account-name.ts), or null without one. */
    naming(accountId: string) {
      return prisma.account.findUnique({ where: { id: accountId }, select: ACCOUNT_NAME });
    },

    async setName(accountId: string, name: string): Promise<void> {
      await prisma.account.updateMany({ where: { id: accountId }, data: { name } });
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
