-- Labels record which member or API key made them, so a fit can tell when most of its labels
-- came from one source, and a score model keeps the warnings its adopter confirmed. (The drop and
-- create of Transaction_accountId_email_idx, raw text_pattern_ops, are left out.)

-- AlterTable
ALTER TABLE "Label" ADD COLUMN     "whoId" TEXT;

-- AlterTable
ALTER TABLE "ScoreModel" ADD COLUMN     "confirmedWarnings" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- Labels stored before: by a member (who holds their email) or an API key (who holds API key
-- and the first 8 characters of its id).
UPDATE "Label" l SET "whoId" = u."id"
FROM "User" u
WHERE l."source" = 'person' AND l."whoId" IS NULL AND u."email" = l."who";

UPDATE "Label" l SET "whoId" = k."id"
FROM "ApiKey" k
WHERE l."source" = 'api' AND l."whoId" IS NULL AND k."accountId" = l."accountId"
  AND l."who" = 'API key ' || left(k."id", 8);
