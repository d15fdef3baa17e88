/**
 * The only Prisma code for the merchant's own account as a whole: what an export reads that
 * no other service offers whole (every allow entry in force, the retention columns, the
 * account's name), an import's writes in one transaction, and deleting the account.
 */
import type { AllowKind } from "../../../shared/schemas/allow-list.ts";
import { ACCOUNT_NAME } from "../../db/account-name.ts";
import type { Prisma, PrismaClient } from "../../db/generated/client.ts";

type Tx = Prisma.TransactionClient;
type Json = Prisma.InputJsonObject;

export type RetentionColumns = {
  screeningRetentionDays: number | null;
  collectorRetentionDays: number | null;
  identityRetentionDays: number | null;
  webhookDeliveryRetentionDays: number | null;
  chargePersonalRetentionDays: number | null;
};

export type NewEndpoint = { url: string; events: string[]; secretCipher: string; secret: string };

/** What an import writes; a section left out is not touched. */
export type ConfigWrite = {
  rules?: Json;
  templates?: Json;
  ruleOverrides?: Json;
  thresholds?: Json;
  blocklist?: { countries: string[]; emailProviders: string[] };
  allowEntries?: { kind: AllowKind; value: string; note: string | null; expiresAt: Date | null }[];
  origins?: string[];
  settings?: { appName: string; contactEmail: string; stripePublishable: string };
  endpoints?: NewEndpoint[];
  security?: { requireTwoFactor: boolean; auditRetentionDays: number };
  /** Only the kinds the file names (undefined: unchanged; null: the default). */
  retention?: Partial<RetentionColumns>;
};

const RETENTION = {
  screeningRetentionDays: true,
  collectorRetentionDays: true,
  identityRetentionDays: true,
  webhookDeliveryRetentionDays: true,
  chargePersonalRetentionDays: true,
} as const;

const sameEvents = (a: readonly string[], b: readonly string[]) =>
  [...a].sort().join(",") === [...b].sort().join(",");

/** The account's row, locked for the transaction; false when it is gone. */
async function lock(tx: Tx, accountId: string, toDelete: boolean): Promise<boolean> {
  const rows = toDelete
    ? await tx.$queryRaw<unknown[]>`SELECT 1 FROM "Account" WHERE "id" = ${accountId} FOR UPDATE`
    : await tx.$queryRaw<unknown[]>`
        SELECT 1 FROM "Account" WHERE "id" = ${accountId} FOR NO KEY UPDATE`;
  return rows.length > 0;
}

async function writeSettings(tx: Tx, accountId: string, write: ConfigWrite) {
  const json = [
    [tx.ruleSettings, write.rules],
    [tx.templateSettings, write.templates],
    [tx.ruleParameterSettings, write.ruleOverrides],
  ] as const;
  for (const [rows, values] of json) {
    if (!values) continue;
    await (rows as Tx["ruleSettings"]).upsert({
      where: { accountId },
      create: { accountId, values },
      update: { values },
    });
  }
  if (write.thresholds) {
    const thresholds = write.thresholds;
    await tx.scoreSettings.upsert({
      where: { accountId },
      create: { accountId, thresholds },
      update: { thresholds },
    });
  }
  if (write.blocklist) {
    await tx.blocklist.upsert({
      where: { accountId },
      create: { accountId, ...write.blocklist },
      update: write.blocklist,
    });
  }
  if (write.origins) {
    const origins = write.origins;
    await tx.allowedOrigins.upsert({
      where: { accountId },
      create: { accountId, origins },
      update: { origins },
    });
  }
  if (write.settings) {
    await tx.merchantSettings.upsert({
      where: { accountId },
      create: { accountId, ...write.settings },
      update: write.settings,
    });
  }
  if (write.security || write.retention) {
    await tx.account.update({
      where: { id: accountId },
      data: { ...write.security, ...write.retention },
    });
  }
}

type CreatedEndpoint = { id: string; url: string; secret: string };

/** Thrown inside an import's transaction to roll it back. */
class TooManyEndpoints extends Error {}

/**
 * Adds the endpoints the account does not have yet (same URL and events: already there);
 * past `max` in all, throws TooManyEndpoints (the account's row is locked: no race).
 */
async function addEndpoints(
  tx: Tx,
  accountId: string,
  endpoints: NewEndpoint[],
  at: Date,
  max: number,
): Promise<CreatedEndpoint[]> {
  const existing = await tx.webhookEndpoint.findMany({
    where: { accountId },
    select: { url: true, events: true },
  });
  const created: CreatedEndpoint[] = [];
  for (const endpoint of endpoints) {
    if (existing.some((e) => e.url === endpoint.url && sameEvents(e.events, endpoint.events))) {
      continue;
    }
    if (existing.length >= max) throw new TooManyEndpoints();
    const row = await tx.webhookEndpoint.create({
      data: {
        accountId,
        url: endpoint.url,
        events: endpoint.events,
        secretCipher: endpoint.secretCipher,
        createdAt: at,
      },
      select: { id: true },
    });
    existing.push({ url: endpoint.url, events: endpoint.events });
    created.push({ id: row.id, url: endpoint.url, secret: endpoint.secret });
  }
  return created;
}

export function createAccountDataRepository(prisma: PrismaClient) {
  return {
    /** Every allow entry in force at `at`, in a stable order. */
    async allowEntries(accountId: string, at: Date) {
      const rows = await prisma.allowEntry.findMany({
        where: { accountId, OR: [{ expiresAt: null }, { expiresAt: { gt: at } }] },
        orderBy: [{ kind: "asc" }, { value: "asc" }],
        select: { kind: true, value: true, note: true, expiresAt: true },
      });
      return rows;
    },

    async retention(accountId: string): Promise<RetentionColumns | null> {
      return prisma.account.findUnique({ where: { id: accountId }, select: RETENTION });
    },

    /** What names the account: the app's name from Settings, and its first owner's email. */
    async naming(accountId: string) {
      return prisma.account.findUnique({
        where: { id: accountId },
        select: ACCOUNT_NAME,
      });
    },

    /** How many members of the account, `userId` aside, sign in without a second factor. */
    async othersWithoutTwoFactor(accountId: string, userId: string | undefined): Promise<number> {
      return prisma.membership.count({
        where: {
          accountId,
          ...(userId ? { userId: { not: userId } } : {}),
          user: { totpEnabledAt: null },
        },
      });
    },

    async passwordHash(userId: string): Promise<string | null> {
      const user = await prisma.user.findUnique({
        where: { id: userId },
        select: { passwordHash: true },
      });
      return user?.passwordHash ?? null;
    },

    /**
     * Writes an import in one transaction holding the account's row: every section or none.
     * Endpoints already there with the same URL and events are not added again; past
     * `maxEndpoints` in all, the transaction is rolled back ("tooManyEndpoints"); without the
     * account (deleted meanwhile), "gone". Answers the endpoints it created.
     */
    async apply(
      accountId: string,
      write: ConfigWrite,
      { at, addedBy, maxEndpoints }: { at: Date; addedBy: string; maxEndpoints: number },
    ): Promise<{ created: CreatedEndpoint[] } | "gone" | "tooManyEndpoints"> {
      try {
        return await prisma.$transaction(
          async (tx) => {
            if (!(await lock(tx, accountId, false))) return "gone" as const;
            await writeSettings(tx, accountId, write);
            for (const entry of write.allowEntries ?? []) {
              const data = { note: entry.note, addedBy, expiresAt: entry.expiresAt, createdAt: at };
              await tx.allowEntry.upsert({
                where: {
                  accountId_kind_value: { accountId, kind: entry.kind, value: entry.value },
                },
                create: { accountId, kind: entry.kind, value: entry.value, ...data },
                update: data,
                select: { id: true },
              });
            }
            return {
              created: await addEndpoints(tx, accountId, write.endpoints ?? [], at, maxEndpoints),
            };
          },
          { timeout: 120_000, maxWait: 30_000 },
        );
      } catch (error) {
        // Past the cap, the whole import is rolled back, sections written before it too.
        if (error instanceof TooManyEndpoints) return "tooManyEndpoints";
        throw error;
      }
    },

    /**
     * Deletes the account and, by cascade, everything it owns (ScreeningIdentity has no
     * foreign key: its rows go explicitly). A person whose home account this is but who is a
     * member elsewhere is moved to their oldest other account first (User.accountId cascades);
     * the others are deleted with it. `endSessionsOf`'s sessions all end. False when the
     * account was gone already (a second delete racing the first).
     */
    async deleteAccount(accountId: string, endSessionsOf: string): Promise<boolean> {
      return prisma.$transaction(
        async (tx) => {
          if (!(await lock(tx, accountId, true))) return false;
          const homed = await tx.user.findMany({
            where: { accountId },
            select: {
              id: true,
              memberships: {
                where: { accountId: { not: accountId } },
                orderBy: [{ createdAt: "asc" }, { id: "asc" }],
                take: 1,
                select: { accountId: true },
              },
            },
          });
          for (const user of homed) {
            const elsewhere = user.memberships[0];
            if (elsewhere) {
              await tx.user.update({
                where: { id: user.id },
                data: { accountId: elsewhere.accountId },
              });
            }
          }
          await tx.session.deleteMany({ where: { userId: endSessionsOf } });
          // Other members' sessions acting here move to another of their accounts on their
          // next request (session.service: a session without its account moves on).
          await tx.session.updateMany({ where: { accountId }, data: { accountId: null } });
          await tx.screeningIdentity.deleteMany({ where: { accountId } });
          await tx.account.delete({ where: { id: accountId } });
          return true;
        },
        { timeout: 300_000, maxWait: 30_000 },
      );
    },
  };
}

export type AccountDataRepository = ReturnType<typeof createAccountDataRepository>;
