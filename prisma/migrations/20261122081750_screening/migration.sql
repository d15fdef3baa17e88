-- CreateEnum
CREATE TYPE "ApiKeyKind" AS ENUM ('secret', 'publishable');

-- AlterTable
ALTER TABLE "Transaction" ADD COLUMN     "cardFingerprint" TEXT;

-- CreateTable
CREATE TABLE "RuleParameterSettings" (
    "accountId" TEXT NOT NULL,
    "values" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RuleParameterSettings_pkey" PRIMARY KEY ("accountId")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "ApiKeyKind" NOT NULL DEFAULT 'secret',
    "start" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Screening" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "type" TEXT NOT NULL,
    "userId" TEXT,
    "email" TEXT,
    "ip" TEXT,
    "country" TEXT,
    "decision" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "rules" TEXT[],
    "reasons" JSONB NOT NULL,
    "monitored" JSONB NOT NULL,
    "input" JSONB NOT NULL,

    CONSTRAINT "Screening_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ScreeningIdentity" (
    "id" BIGSERIAL NOT NULL,
    "accountId" TEXT NOT NULL,
    "screeningId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "subject" TEXT,
    "userId" TEXT,
    "card" TEXT,
    "promo" TEXT,
    "blocked" BOOLEAN NOT NULL,

    CONSTRAINT "ScreeningIdentity_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_keyHash_key" ON "ApiKey"("keyHash");

-- CreateIndex
CREATE INDEX "ApiKey_accountId_createdAt_idx" ON "ApiKey"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "Screening_accountId_createdAt_id_idx" ON "Screening"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Screening_accountId_decision_createdAt_idx" ON "Screening"("accountId", "decision", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "ScreeningIdentity_accountId_kind_value_type_at_idx" ON "ScreeningIdentity"("accountId", "kind", "value", "type", "at");

-- CreateIndex
CREATE INDEX "ScreeningIdentity_at_idx" ON "ScreeningIdentity"("at");

-- CreateIndex
CREATE INDEX "Transaction_accountId_cardFingerprint_idx" ON "Transaction"("accountId", "cardFingerprint");

-- AddForeignKey
ALTER TABLE "RuleParameterSettings" ADD CONSTRAINT "RuleParameterSettings_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Screening" ADD CONSTRAINT "Screening_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
