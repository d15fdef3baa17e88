/** The only code that touches the database for a merchant's allow list. */
import type { AllowEntryView, AllowKind } from "../../../shared/schemas/allow-list.ts";
import type { PrismaClient } from "../../db/generated/client.ts";
import type { AllowListEntry } from "../../engine/types.ts";

type Row = {
  id: string;
  kind: AllowKind;
  value: string;
  note: string | null;
  addedBy: string;
  createdAt: Date;
  expiresAt: Date | null;
};

const toView = (row: Row): AllowEntryView => ({
  id: row.id,
  kind: row.kind,
  value: row.value,
  note: row.note,
  added_by: row.addedBy,
  created_at: row.createdAt.toISOString(),
  expires_at: row.expiresAt?.toISOString() ?? null,
});

export function createAllowListRepository(prisma: PrismaClient) {
  return {
    async list(accountId: string): Promise<AllowEntryView[]> {
      const rows = await prisma.allowEntry.findMany({
        where: { accountId },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: 1000,
      });
      return rows.map(toView);
    },

    /** Entries in force at `at`, as the engine reads them. */
    async active(accountId: string, at: Date): Promise<AllowListEntry[]> {
      const rows = await prisma.allowEntry.findMany({
        where: { accountId, OR: [{ expiresAt: null }, { expiresAt: { gt: at } }] },
        take: 10_000,
      });
      return rows.map((row) => ({
        kind: row.kind,
        value: row.value,
        addedBy: row.addedBy,
        addedAt: row.createdAt.toISOString(),
        expiresAt: row.expiresAt?.toISOString() ?? null,
      }));
    },

    /** Adds the entry, or renews it (note, who, expiry) when the value is listed already. */
    async upsert(
      accountId: string,
      entry: {
        kind: AllowKind;
        value: string;
        note: string | null;
        addedBy: string;
        expiresAt: Date | null;
      },
      at: Date,
    ): Promise<AllowEntryView> {
      const data = {
        note: entry.note,
        addedBy: entry.addedBy,
        expiresAt: entry.expiresAt,
        createdAt: at,
      };
      return toView(
        await prisma.allowEntry.upsert({
          where: { accountId_kind_value: { accountId, kind: entry.kind, value: entry.value } },
          create: { accountId, kind: entry.kind, value: entry.value, ...data },
          update: data,
        }),
      );
    },

    async remove(accountId: string, id: string): Promise<boolean> {
      const { count } = await prisma.allowEntry.deleteMany({ where: { accountId, id } });
      return count > 0;
    },
  };
}

export type AllowListRepository = ReturnType<typeof createAllowListRepository>;
