-- CreateTable
CREATE TABLE "AllowedOrigins" (
    "accountId" TEXT NOT NULL,
    "origins" TEXT[],
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AllowedOrigins_pkey" PRIMARY KEY ("accountId")
);

-- CreateTable
CREATE TABLE "CollectRefusal" (
    "accountId" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "firstAt" TIMESTAMP(3) NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "CollectRefusal_pkey" PRIMARY KEY ("accountId","origin")
);

-- CreateIndex
CREATE INDEX "CollectRefusal_accountId_lastAt_idx" ON "CollectRefusal"("accountId", "lastAt" DESC);

-- AddForeignKey
ALTER TABLE "AllowedOrigins" ADD CONSTRAINT "AllowedOrigins_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CollectRefusal" ADD CONSTRAINT "CollectRefusal_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Allowed origins move from rule_referrer_mismatch's settings to the account's own list
-- (Settings → API keys): copy each account's list, then drop it from the rule's settings.
INSERT INTO "AllowedOrigins" ("accountId", "origins", "updatedAt")
SELECT "accountId",
       ARRAY(SELECT jsonb_array_elements_text("values"->'rule_referrer_mismatch'->'allowed_origins')),
       CURRENT_TIMESTAMP
FROM "RuleParameterSettings"
WHERE jsonb_typeof("values"->'rule_referrer_mismatch'->'allowed_origins') = 'array';

UPDATE "RuleParameterSettings"
SET "values" = jsonb_set("values", '{rule_referrer_mismatch}', ("values"->'rule_referrer_mismatch') - 'allowed_origins')
WHERE jsonb_typeof("values"->'rule_referrer_mismatch') = 'object'
  AND ("values"->'rule_referrer_mismatch') ? 'allowed_origins';
