/**
 * What names an account: the name its owner set, else the app's name from Settings, else its
 * first owner's email (modules/accounts/account-name.ts). One select for every repository
 * that shows an account's name (auth, team, account data).
 */
import type { Prisma } from "./generated/client.ts";

export const ACCOUNT_NAME = {
  name: true,
  settings: { select: { appName: true } },
  members: {
    where: { role: "owner" },
    orderBy: { createdAt: "asc" },
    take: 1,
    select: { user: { select: { email: true } } },
  },
} as const satisfies Prisma.AccountSelect;
