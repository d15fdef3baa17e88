/**
 * The only Prisma code for data retention: each account's settings (Account's retention
 * columns; null: the instance's default), and clearing charges' personal fields past them.
 */
import type { PrismaClient } from "../../db/generated/client.ts";

/** An account's retention columns, by the kind they keep (shared/privacy/retention.ts). */
export type RetentionColumns = {
  screeningRetentionDays: number | null;
  collectorRetentionDays: number | null;
  identityRetentionDays: number | null;
  webhookDeliveryRetentionDays: number | null;
  auditRetentionDays: number;
  chargePersonalRetentionDays: number | null;
};

const COLUMNS = {
  screeningRetentionDays: true,
  collectorRetentionDays: true,
  identityRetentionDays: true,
  webhookDeliveryRetentionDays: true,
  auditRetentionDays: true,
  chargePersonalRetentionDays: true,
} as const;

export function createRetentionRepository(prisma: PrismaClient) {
  return {
    find(accountId: string): Promise<RetentionColumns | null> {
      return prisma.account.findUnique({ where: { id: accountId }, select: COLUMNS });
    },

    async save(accountId: string, data: Partial<RetentionColumns>): Promise<void> {
      await prisma.account.update({ where: { id: accountId }, data, select: { id: true } });
    },

    /**
     * Clears the email, card fingerprint and review note of at most `batch` charges created
     * more than their account's retention before `now` (`defaultDays` where it has none);
     * amounts, outcome and decision stay. Returns how many were cleared.
     */
    clearChargePersonal(now: Date, defaultDays: number, batch: number): Promise<number> {
      const nowSeconds = Math.floor(now.getTime() / 1000);
      return prisma.$executeRaw`
        UPDATE "Transaction" AS t
        SET "email" = NULL, "cardFingerprint" = NULL, "reviewNote" = NULL,
          "personalClearedAt" = ${now}
        FROM (
          SELECT c."accountId", c."chargeId" FROM "Account" a
          CROSS JOIN LATERAL (
            SELECT x."accountId", x."chargeId" FROM "Transaction" x
            WHERE x."accountId" = a."id"
              AND x."created" < ${nowSeconds}::int
                - 86400 * COALESCE(a."chargePersonalRetentionDays", ${defaultDays}::int)
              AND (x."email" IS NOT NULL OR x."cardFingerprint" IS NOT NULL
                OR x."reviewNote" IS NOT NULL)
            LIMIT ${batch}
          ) AS c
          LIMIT ${batch}
        ) AS due
        WHERE t."accountId" = due."accountId" AND t."chargeId" = due."chargeId"`;
    },

    /**
     * Clears the note (free text, which may name the person) of at most `batch` labels older
     * than their subject's retention: a screening's label with the screenings, a charge's with
     * the charges' personal fields. The label itself stays (fraud or legitimate, for fitting).
     */
    clearLabelNotes(
      now: Date,
      defaults: { screenings: number; charges: number },
      batch: number,
    ): Promise<number> {
      return prisma.$executeRaw`
        UPDATE "Label" SET "note" = NULL WHERE "id" IN (
          SELECT l."id" FROM "Label" l JOIN "Account" a ON a."id" = l."accountId"
          WHERE l."note" IS NOT NULL
            AND l."createdAt" < ${now.toISOString()}::timestamp - make_interval(days =>
              CASE WHEN l."subjectKind"::text = 'screening'
                THEN COALESCE(a."screeningRetentionDays", ${defaults.screenings}::int)
                ELSE COALESCE(a."chargePersonalRetentionDays", ${defaults.charges}::int)
              END)
          LIMIT ${batch}
        )`;
    },

    /**
     * Deletes at most `batch` allow-list entries that ended more than the screenings'
     * retention ago: they decide nothing any more, and the screenings they decided are gone.
     * An entry with no end is the merchant's standing instruction and stays until removed.
     */
    purgeEndedAllowEntries(now: Date, defaultDays: number, batch: number): Promise<number> {
      return prisma.$executeRaw`
        DELETE FROM "AllowEntry" WHERE "id" IN (
          SELECT e."id" FROM "AllowEntry" e JOIN "Account" a ON a."id" = e."accountId"
          WHERE e."expiresAt" < ${now.toISOString()}::timestamp
            - make_interval(days => COALESCE(a."screeningRetentionDays", ${defaultDays}::int))
          LIMIT ${batch}
        )`;
    },
  };
}

export type RetentionRepository = ReturnType<typeof createRetentionRepository>;
