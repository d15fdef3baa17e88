/**
 * What names an account: the app's name from Settings, else its first owner's email. One
 * select for every repository that shows an account's name (auth, team, account data).
 */
import type { Prisma } from "./generated/client.ts";

export const ACCOUNT_NAME = {
  settings: { select: { appName: true } },
  members: {
    where: { role: "owner" },
    orderBy: { createdAt: "asc" },
    take: 1,
    select: { user: { select: { email: true } } },
  },
} as const satisfies Prisma.AccountSelect;
