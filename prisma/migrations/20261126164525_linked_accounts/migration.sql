-- Linked accounts (decision 023): the summary the screening path stores with each screening
-- (null on screenings stored before), and the mark on a screening's counting rows that says it
-- was denied in review or labelled fraud, so a link can say "of them, 2 bad" from those rows.
-- AlterTable
ALTER TABLE "Screening" ADD COLUMN     "linked" JSONB;

-- AlterTable
ALTER TABLE "ScreeningIdentity" ADD COLUMN     "flagged" BOOLEAN NOT NULL DEFAULT false;

-- Backfill: the marks of what was decided before: screenings whose newest label is fraud, and denied ones
-- not labelled legitimate since (as server/modules/links/flags.sql.ts keeps them from now on).
-- A screening's counting rows carry its time (`at` = its createdAt): the `at` index finds them.
UPDATE "ScreeningIdentity" si SET "flagged" = true
FROM (
  SELECT s."id", s."accountId", s."createdAt"
  FROM "Screening" s
  LEFT JOIN LATERAL (
    SELECT l."label", l."createdAt" FROM "Label" l
    WHERE l."accountId" = s."accountId" AND l."subjectKind" = 'screening' AND l."subjectId" = s."id"
    ORDER BY l."createdAt" DESC, l."id" DESC LIMIT 1
  ) newest ON true
  WHERE s."id" IN (
      SELECT "id" FROM "Screening" WHERE "reviewStatus" = 'denied'
      UNION
      SELECT "subjectId" FROM "Label" WHERE "subjectKind" = 'screening')
    AND (newest."label" = 'fraud'
      OR (s."reviewStatus" = 'denied'
        AND NOT (newest."label" IS NOT NULL AND newest."label" = 'legitimate'
          AND newest."createdAt" >= s."reviewedAt")))
) marked
WHERE si."accountId" = marked."accountId" AND si."at" = marked."createdAt"
  AND si."screeningId" = marked."id";
