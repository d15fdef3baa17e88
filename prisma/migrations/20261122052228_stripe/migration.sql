-- CreateEnum
CREATE TYPE "BlockedBy" AS ENUM ('stripe', 'custom_rule');

-- CreateEnum
CREATE TYPE "StripeActionKind" AS ENUM ('refund', 'cancel');

-- CreateEnum
CREATE TYPE "StripeActionStatus" AS ENUM ('pending', 'done', 'failed');

-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "webhookEndpointId" TEXT NOT NULL DEFAULT (gen_random_uuid())::text;

-- CreateTable
CREATE TABLE "Transaction" (
    "accountId" TEXT NOT NULL,
    "chargeId" TEXT NOT NULL,
    "hasCharge" BOOLEAN NOT NULL DEFAULT false,
    "paymentIntentId" TEXT,
    "amount" INTEGER NOT NULL DEFAULT 0,
    "amountRefunded" INTEGER NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL DEFAULT '',
    "email" TEXT,
    "created" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "captured" BOOLEAN NOT NULL DEFAULT false,
    "refunded" BOOLEAN NOT NULL DEFAULT false,
    "disputed" BOOLEAN NOT NULL DEFAULT false,
    "outcomeType" TEXT,
    "outcomeReason" TEXT,
    "riskLevel" TEXT,
    "riskScore" INTEGER,
    "cardCountry" TEXT,
    "billingCountry" TEXT,
    "livemode" BOOLEAN NOT NULL DEFAULT false,
    "efwId" TEXT,
    "efwActionable" BOOLEAN,
    "efwFraudType" TEXT,
    "outcome" TEXT NOT NULL DEFAULT 'pending',
    "blockedBy" "BlockedBy",
    "ruleReason" TEXT,
    "actionKind" TEXT,
    "actionStatus" TEXT,
    "actionError" TEXT,
    "lastEventAt" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Transaction_pkey" PRIMARY KEY ("accountId","chargeId")
);

-- CreateTable
CREATE TABLE "StripeEvent" (
    "accountId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "created" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "chargeId" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StripeEvent_pkey" PRIMARY KEY ("accountId","eventId")
);

-- CreateTable
CREATE TABLE "StripeAction" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "chargeId" TEXT NOT NULL,
    "kind" "StripeActionKind" NOT NULL,
    "targetId" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" "StripeActionStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "stripeObjectId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StripeAction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ImportJob" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "days" INTEGER NOT NULL,
    "imported" INTEGER NOT NULL DEFAULT 0,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ImportJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Transaction_accountId_created_chargeId_idx" ON "Transaction"("accountId", "created" DESC, "chargeId" DESC);

-- CreateIndex
CREATE INDEX "Transaction_accountId_outcome_created_chargeId_idx" ON "Transaction"("accountId", "outcome", "created" DESC, "chargeId" DESC);

-- CreateIndex
CREATE INDEX "Transaction_accountId_email_idx" ON "Transaction"("accountId", "email");

-- CreateIndex
CREATE INDEX "StripeAction_status_nextAttemptAt_idx" ON "StripeAction"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "StripeAction_accountId_chargeId_idx" ON "StripeAction"("accountId", "chargeId");

-- CreateIndex
CREATE UNIQUE INDEX "StripeAction_accountId_idempotencyKey_key" ON "StripeAction"("accountId", "idempotencyKey");

-- CreateIndex
CREATE INDEX "ImportJob_accountId_startedAt_idx" ON "ImportJob"("accountId", "startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Account_webhookEndpointId_key" ON "Account"("webhookEndpointId");

-- AddForeignKey
ALTER TABLE "Transaction" ADD CONSTRAINT "Transaction_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StripeEvent" ADD CONSTRAINT "StripeEvent_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StripeAction" ADD CONSTRAINT "StripeAction_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportJob" ADD CONSTRAINT "ImportJob_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
