/**
 * The only code that touches the database for the demo: what loading it changed in the
 * settings (DemoLoad), and its removal. Demo rows are the charges marked "demo" (test mode,
 * metadata warden_demo); everything else the demo adds hangs off them: their Stripe events
 * (the inbox), the rules' simulated actions, Stripe's fraud labels, and their reviews (on the
 * charge's own row). The dashboard's daily rollup follows the deleted charges by its triggers
 * (decision 010), in the same transaction.
 */
import type { Prisma, PrismaClient } from "../../db/generated/client.ts";

/** What a load changed: the rules it turned on and countries it blocked, as it left them. */
export type DemoChanges = {
  rulesTurnedOn: string[];
  rulesAfter: Record<string, unknown> | null;
  countriesAdded: string[];
  countriesAfter: string[];
};

export type DemoRowsRemoved = {
  charges: number;
  reviews: number;
  labels: number;
  stripeEvents: number;
  actions: number;
};

export function createDemoRepository(prisma: PrismaClient) {
  return {
    /** How many demo charges the account holds. */
    loadedCharges(accountId: string): Promise<number> {
      return prisma.transaction.count({ where: { accountId, demo: true } });
    },

    /** What the demo changed, recorded at load; null when it changed nothing or was removed. */
    async changes(accountId: string): Promise<DemoChanges | null> {
      const row = await prisma.demoLoad.findUnique({ where: { accountId } });
      if (!row) return null;
      return {
        rulesTurnedOn: row.rulesTurnedOn,
        rulesAfter: (row.rulesAfter as Record<string, unknown> | null) ?? null,
        countriesAdded: row.countriesAdded,
        countriesAfter: row.countriesAfter,
      };
    },

    /** Records a load's changes; a second load adds to what the first one changed. */
    async recordChanges(accountId: string, changes: DemoChanges, at: Date): Promise<void> {
      const before = await prisma.demoLoad.findUnique({ where: { accountId } });
      const union = (a: string[] = [], b: string[]) => [...new Set([...a, ...b])];
      const data = {
        loadedAt: at,
        rulesTurnedOn: union(before?.rulesTurnedOn, changes.rulesTurnedOn),
        rulesAfter: (changes.rulesAfter ?? before?.rulesAfter ?? undefined) as
          | Prisma.InputJsonValue
          | undefined,
        countriesAdded: union(before?.countriesAdded, changes.countriesAdded),
        countriesAfter: changes.countriesAdded.length
          ? changes.countriesAfter
          : (before?.countriesAfter ?? []),
      };
      await prisma.demoLoad.upsert({
        where: { accountId },
        create: { accountId, ...data },
        update: data,
      });
    },

    /** Forgets what the demo changed (after the settings were put back, or left). */
    async forgetChanges(accountId: string): Promise<void> {
      await prisma.demoLoad.deleteMany({ where: { accountId } });
    },

    /** Deletes the demo's rows, and only them, in one transaction. */
    removeRows(accountId: string): Promise<DemoRowsRemoved> {
      return prisma.$transaction(async (tx) => {
        const charges = await tx.transaction.findMany({
          where: { accountId, demo: true },
          select: { chargeId: true, reviewStatus: true },
        });
        const ids = charges.map((c) => c.chargeId);
        const ofCharges = { accountId, chargeId: { in: ids } };
        const labels = await tx.label.deleteMany({
          where: { accountId, subjectKind: "charge", subjectId: { in: ids } },
        });
        const actions = await tx.stripeAction.deleteMany({ where: ofCharges });
        const stripeEvents = await tx.stripeEvent.deleteMany({ where: ofCharges });
        const deleted = await tx.transaction.deleteMany({ where: { ...ofCharges, demo: true } });
        return {
          charges: deleted.count,
          reviews: charges.filter((c) => c.reviewStatus !== null).length,
          labels: labels.count,
          stripeEvents: stripeEvents.count,
          actions: actions.count,
        };
      });
    },
  };
}

export type DemoRepository = ReturnType<typeof createDemoRepository>;
