/**
 * The only code that touches the database for a fit's inputs (training-set.ts says what they
 * mean): the newest word on each screening (labels, review decisions), the charges Stripe's
 * records judge, checkout screenings to match them with, and screenings as a fit and a
 * backtest read them (signal values from the stored contributions, the rules' own action).
 * Every query is scoped by account; the long reads are keyset pages.
 */
import { Prisma, type PrismaClient } from "../../db/generated/client.ts";
import type {
  ChargeVerdict,
  CheckoutRow,
  FeatureRow,
  OwnWord,
  RuleAction,
} from "./training-set.ts";

/** Where a page of screenings starts: after this one (newest first). */
export type ScreeningKeyset = { createdAt: Date; id: string } | null;

/** The charges read at most (newest first). */
const MAX_CHARGES = 200_000;

/**
 * A screening's signal values ({ signal: value }, from contributions other than the baseline)
 * and what its rules did without the score: allow-listed, blocked or reviewed by a rule.
 */
const FEATURES = Prisma.sql`
  s."id", s."type", s."createdAt",
  (SELECT coalesce(jsonb_object_agg(c->>'signal', c->'value'), '{}'::jsonb)
     FROM jsonb_array_elements(s."contributions") c
     WHERE jsonb_typeof(c->'value') = 'number') AS "x",
  CASE
    WHEN jsonb_typeof(s."allowed") = 'object' THEN 'allow'
    WHEN jsonb_typeof(s."reasons") <> 'array' THEN NULL
    WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(s."reasons") r
                 WHERE r->>'action' = 'block' AND r->>'rule' <> 'risk_score') THEN 'block'
    WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(s."reasons") r
                 WHERE r->>'action' = 'review' AND r->>'rule' <> 'risk_score') THEN 'review'
  END AS "rule"`;

type FeatureRecord = {
  id: string;
  type: string;
  createdAt: Date;
  x: Record<string, number>;
  rule: RuleAction;
};

const after = (keyset: ScreeningKeyset) =>
  keyset
    ? Prisma.sql`AND (s."createdAt", s."id") < (${keyset.createdAt}, ${keyset.id})`
    : Prisma.empty;

export function createTrainingRepository(prisma: PrismaClient) {
  return {
    /** Each labelled screening's newest label. */
    async labels(accountId: string): Promise<OwnWord[]> {
      const rows = await prisma.$queryRaw<
        { id: string; createdAt: Date; at: Date; label: string }[]
      >`
        SELECT l."subjectId" AS "id", s."createdAt", l."createdAt" AS "at", l."label"::text AS "label"
        FROM (SELECT DISTINCT ON ("subjectId") "subjectId", "label", "createdAt"
              FROM "Label"
              WHERE "accountId" = ${accountId} AND "subjectKind" = 'screening'
              ORDER BY "subjectId", "createdAt" DESC, "id" DESC) l
        JOIN "Screening" s ON s."accountId" = ${accountId} AND s."id" = l."subjectId"`;
      return rows.map((r) => ({ ...r, y: r.label === "fraud" ? 1 : 0, source: "labels" }));
    },

    /** Settled reviews (only screenings answered review are ever settled). */
    async reviews(accountId: string): Promise<OwnWord[]> {
      const rows = await prisma.$queryRaw<
        { id: string; createdAt: Date; at: Date; status: string }[]
      >`
        SELECT "id", "createdAt", "reviewedAt" AS "at", "reviewStatus" AS "status"
        FROM "Screening"
        WHERE "accountId" = ${accountId} AND "decision" = 'review'
          AND "reviewStatus" IS NOT NULL AND "reviewedAt" IS NOT NULL`;
      return rows.map((r) => ({ ...r, y: r.status === "denied" ? 1 : 0, source: "reviews" }));
    },

    /**
     * Charges Stripe's records judge (demo charges left out): fraud when the newest label is
     * fraud, legitimate when it is legitimate, or when the charge succeeded before
     * `settledBefore` (Unix seconds) and was never refunded nor disputed.
     */
    async charges(accountId: string, settledBefore: number): Promise<ChargeVerdict[]> {
      const rows = await prisma.$queryRaw<
        { email: string | null; card: string | null; created: number; label: string | null }[]
      >`
        SELECT t."email", t."cardFingerprint" AS "card", t."created", l."label"
        FROM "Transaction" t
        LEFT JOIN LATERAL (
          SELECT "label"::text AS "label" FROM "Label"
          WHERE "accountId" = ${accountId} AND "subjectKind" = 'charge' AND "subjectId" = t."chargeId"
          ORDER BY "createdAt" DESC, "id" DESC LIMIT 1) l ON true
        WHERE t."accountId" = ${accountId} AND NOT t."demo"
          AND (t."email" IS NOT NULL OR t."cardFingerprint" IS NOT NULL)
          AND (l."label" IS NOT NULL
               OR (t."status" = 'succeeded' AND NOT t."refunded" AND NOT t."disputed"
                   AND t."created" < ${settledBefore}))
        ORDER BY t."created" DESC
        LIMIT ${MAX_CHARGES}`;
      return rows.map((r) => ({
        email: r.email,
        card: r.card,
        created: Number(r.created),
        y: r.label === "fraud" ? 1 : 0,
      }));
    },

    /** A page of checkout screenings created in [from, to], newest first. */
    checkouts(
      accountId: string,
      from: Date,
      to: Date,
      keyset: ScreeningKeyset,
      limit: number,
    ): Promise<CheckoutRow[]> {
      return prisma.$queryRaw<CheckoutRow[]>`
        SELECT s."id", s."createdAt", s."email", s."input"->>'card_fingerprint' AS "card"
        FROM "Screening" s
        WHERE s."accountId" = ${accountId} AND s."type" = 'checkout'
          AND s."createdAt" >= ${from} AND s."createdAt" <= ${to} ${after(keyset)}
        ORDER BY s."createdAt" DESC, s."id" DESC
        LIMIT ${limit}`;
    },

    /** These screenings as a fit reads them (those stored before the score existed left out). */
    async features(accountId: string, ids: readonly string[]): Promise<FeatureRow[]> {
      if (ids.length === 0) return [];
      const rows = await prisma.$queryRaw<FeatureRecord[]>`
        SELECT ${FEATURES}
        FROM "Screening" s
        WHERE s."accountId" = ${accountId} AND s."id" = ANY(${[...ids]}::text[])
          AND jsonb_typeof(s."contributions") = 'array'`;
      return rows.map(({ createdAt: _at, ...row }) => row);
    },

    /** A page of the scored screenings created since `since`, newest first. */
    recent(
      accountId: string,
      since: Date,
      keyset: ScreeningKeyset,
      limit: number,
    ): Promise<FeatureRecord[]> {
      return prisma.$queryRaw<FeatureRecord[]>`
        SELECT ${FEATURES}
        FROM "Screening" s
        WHERE s."accountId" = ${accountId} AND s."createdAt" >= ${since} ${after(keyset)}
          AND jsonb_typeof(s."contributions") = 'array'
        ORDER BY s."createdAt" DESC, s."id" DESC
        LIMIT ${limit}`;
    },
  };
}

export type TrainingRepository = ReturnType<typeof createTrainingRepository>;
