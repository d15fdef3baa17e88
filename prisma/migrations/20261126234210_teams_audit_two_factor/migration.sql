-- CreateEnum
CREATE TYPE "Role" AS ENUM ('owner', 'admin', 'analyst', 'viewer');

-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "auditRetentionDays" INTEGER NOT NULL DEFAULT 365,
ADD COLUMN     "requireTwoFactor" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "accountId" TEXT,
ADD COLUMN     "pendingTwoFactor" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "totpEnabledAt" TIMESTAMP(3),
ADD COLUMN     "totpLastStep" BIGINT,
ADD COLUMN     "totpPendingSecret" TEXT,
ADD COLUMN     "totpSecret" TEXT;

-- CreateTable
CREATE TABLE "Membership" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Membership_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Invite" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "invitedBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "acceptedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "Invite_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RecoveryCode" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "RecoveryCode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorKind" TEXT NOT NULL,
    "actorId" TEXT,
    "actor" TEXT NOT NULL,
    "ip" TEXT,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "before" JSONB,
    "after" JSONB,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Membership_userId_idx" ON "Membership"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Membership_accountId_userId_key" ON "Membership"("accountId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "Invite_tokenHash_key" ON "Invite"("tokenHash");

-- CreateIndex
CREATE INDEX "Invite_accountId_createdAt_idx" ON "Invite"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "RecoveryCode_userId_idx" ON "RecoveryCode"("userId");

-- CreateIndex
CREATE INDEX "AuditEvent_accountId_at_idx" ON "AuditEvent"("accountId", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_accountId_action_at_idx" ON "AuditEvent"("accountId", "action", "at");

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invite" ADD CONSTRAINT "Invite_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RecoveryCode" ADD CONSTRAINT "RecoveryCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every existing user owns the account they signed up with, and their sessions act in it.
INSERT INTO "Membership" ("id", "accountId", "userId", "role")
SELECT gen_random_uuid()::text, "accountId", "id", 'owner' FROM "User";
UPDATE "Session" s SET "accountId" = u."accountId" FROM "User" u WHERE u."id" = s."userId";

-- The audit log is append-only: no UPDATE or TRUNCATE ever, and no DELETE of an event still
-- inside its account's retention (housekeeping deletes older ones, and deleting the account
-- takes its log with it). The body is an E'' string with \073 for each semicolon: the
-- embedded database's migrator splits a script at every semicolon, even inside $$ or a comment.
CREATE FUNCTION "audit_event_guard"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''TRUNCATE'' THEN
    RAISE EXCEPTION ''audit events cannot be truncated'' USING ERRCODE = ''insufficient_privilege''\073
  END IF\073
  IF TG_OP = ''UPDATE'' THEN
    RAISE EXCEPTION ''audit events cannot be changed'' USING ERRCODE = ''insufficient_privilege''\073
  END IF\073
  IF EXISTS (
    SELECT 1 FROM "Account" a
    WHERE a."id" = OLD."accountId"
      AND OLD."at" > (now() AT TIME ZONE ''UTC'') - make_interval(days => a."auditRetentionDays")
  ) THEN
    RAISE EXCEPTION ''audit events inside their retention cannot be deleted''
      USING ERRCODE = ''insufficient_privilege''\073
  END IF\073
  RETURN OLD\073
END
';

CREATE TRIGGER "AuditEvent_append_only"
BEFORE UPDATE OR DELETE ON "AuditEvent"
FOR EACH ROW EXECUTE FUNCTION "audit_event_guard"();

CREATE TRIGGER "AuditEvent_no_truncate"
BEFORE TRUNCATE ON "AuditEvent"
FOR EACH STATEMENT EXECUTE FUNCTION "audit_event_guard"();
