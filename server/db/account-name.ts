/**
 * What names an account: the name its owner set, else the app's name from Settings, else its
 * first owner's email. One select for every repository that shows an account's name (auth,
 * team, audit, account data), and the one function that words it from what the select read.
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

/** What `ACCOUNT_NAME` selects. */
export type Naming = {
  name: string;
  settings: { appName: string } | null;
  members: { user: { email: string } }[];
} | null;

export const UNNAMED = "A Warden account";

export function accountName(account: Naming): string {
  return (
    account?.name.trim() ||
    account?.settings?.appName.trim() ||
    account?.members[0]?.user.email ||
    UNNAMED
  );
}

export type Choice = { account_id: string; name: string; owner: string | null };

/**
 * The names a list of accounts shows, so no two look the same: a name shared by several
 * gets its first owner's email where that tells them apart, else the start of its id.
 */
export function distinctNames(choices: Choice[]): string[] {
  const count = (key: (c: Choice) => string) => {
    const seen = new Map<string, number>();
    for (const c of choices) seen.set(key(c), (seen.get(key(c)) ?? 0) + 1);
    return (c: Choice) => seen.get(key(c)) ?? 0;
  };
  const sameName = count((c) => c.name);
  const sameNameAndOwner = count((c) => `${c.name}\u0000${c.owner ?? ""}`);
  return choices.map((c) => {
    if (sameName(c) < 2) return c.name;
    if (c.owner && c.owner !== c.name && sameNameAndOwner(c) < 2) return `${c.name} · ${c.owner}`;
    return `${c.name} · ${c.account_id.slice(0, 8)}`;
  });
}
