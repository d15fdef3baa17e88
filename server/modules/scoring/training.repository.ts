/**
 * The only code that touches the database for a fit's inputs (training-set.ts says what they
 * mean): the newest word on each screening (labels, review decisions), the charges Stripe's
 * records judge, checkout screenings to match them with, and screenings as a fit and a
 * backtest read them (signal values from the stored contributions, the rules' own action).
 * Every query is scoped by account; the long reads are keyset pages. Each verdict comes with
 * who gave it (training-set.ts `By`): a label's member or API key (Label.whoId, or its `who`
 * for one stored before that was kept), a review's settler (its reviewedBy, an email or
 * "API key 1a2b3c4d", read back to the member or the key).
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

/** A label's source as a `By` key (training-set.ts): null for Stripe's. */
const LABEL_BY = Prisma.sql`CASE "source"
    WHEN 'person' THEN 'member:' || coalesce("whoId", "who")
    WHEN 'api' THEN 'api_key:' || coalesce("whoId", "who")
  END`;

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

/**
 * A screening stored with its score's contributions: the only ones a fit can learn from, so the
 * only ones the one count of labels counts (label-verdicts.ts).
 */
const SCORED = Prisma.sql`jsonb_typeof(s."contributions") = 'array'`;

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
        { id: string; createdAt: Date; at: Date; label: string; by: string | null }[]
      >`
        SELECT l."subjectId" AS "id", s."createdAt", l."createdAt" AS "at", l."label"::text AS "label", l."by"
        FROM (SELECT DISTINCT ON ("subjectId") "subjectId", "label", "createdAt", ${LABEL_BY} AS "by"
              FROM "Label"
              WHERE "accountId" = ${accountId} AND "subjectKind" = 'screening'
              ORDER BY "subjectId", "createdAt" DESC, "id" DESC) l
        JOIN "Screening" s ON s."accountId" = ${accountId} AND s."id" = l."subjectId"
          AND ${SCORED}`;
      return rows.map((r) => ({ ...r, y: r.label === "fraud" ? 1 : 0, source: "labels" }));
    },

    /**
     * Settled reviews (only screenings answered review are ever settled), each with its
     * settler: the API key whose id starts as its "API key 1a2b3c4d" says, or the member with
     * its email (either as written when neither is found).
     */
    async reviews(accountId: string): Promise<OwnWord[]> {
      const rows = await prisma.$queryRaw<
        { id: string; createdAt: Date; at: Date; status: string; by: string | null }[]
      >`
        SELECT s."id", s."createdAt", s."reviewedAt" AS "at", s."reviewStatus" AS "status",
          CASE WHEN k."id" IS NOT NULL THEN 'api_key:' || k."id"
               WHEN u."id" IS NOT NULL THEN 'member:' || u."id"
               WHEN s."reviewedBy" LIKE 'API key %' THEN 'api_key:' || s."reviewedBy"
               WHEN s."reviewedBy" IS NOT NULL THEN 'member:' || s."reviewedBy"
          END AS "by"
        FROM "Screening" s
        LEFT JOIN LATERAL (
          SELECT "id" FROM "ApiKey"
          WHERE "accountId" = ${accountId} AND s."reviewedBy" = 'API key ' || left("id", 8)
          LIMIT 1) k ON s."reviewedBy" LIKE 'API key %'
        LEFT JOIN "User" u ON u."email" = s."reviewedBy"
        WHERE s."accountId" = ${accountId} AND s."decision" = 'review'
          AND s."reviewStatus" IS NOT NULL AND s."reviewedAt" IS NOT NULL AND ${SCORED}`;
      return rows.map((r) => ({ ...r, y: r.status === "denied" ? 1 : 0, source: "reviews" }));
    },

    /**
     * Charges Stripe's records judge (demo charges left out): fraud when the newest label is
     * fraud, legitimate when it is legitimate, or when the charge succeeded before
     * `settledBefore` (Unix seconds) and was never refunded nor disputed.
     */
    async charges(accountId: string, settledBefore: number): Promise<ChargeVerdict[]> {
      const rows = await prisma.$queryRaw<
        {
          email: string | null;
          card: string | null;
          created: number;
          label: string | null;
          by: string | null;
        }[]
      >`
        SELECT t."email", t."cardFingerprint" AS "card", t."created", l."label", l."by"
        FROM "Transaction" t
        LEFT JOIN LATERAL (
          SELECT "label"::text AS "label", ${LABEL_BY} AS "by" FROM "Label"
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
        by: r.by,
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
        WHERE s."accountId" = ${accountId} AND s."type" = 'checkout' AND ${SCORED}
          AND s."createdAt" >= ${from} AND s."createdAt" <= ${to} ${after(keyset)}
        ORDER BY s."createdAt" DESC, s."id" DESC
        LIMIT ${limit}`;
    },

    /**
     * How a proposal names a source: a member by their email, an API key by its name and
     * start; one stored by name only (a label older than Label.whoId) as it was written.
     */
    async sourceName(accountId: string, kind: "member" | "api_key", id: string): Promise<string> {
      if (kind === "api_key") {
        const key = await prisma.apiKey.findFirst({
          where: { accountId, id },
          select: { name: true, start: true },
        });
        return key ? `"${key.name}" (${key.start}…)` : id;
      }
      const user = await prisma.user.findUnique({ where: { id }, select: { email: true } });
      return user?.email ?? id;
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
