-- A team's first day (issue 47): accounts get a name their owner sets, a login returns to the
-- account last used, audit events keep a readable name for their target, and a bulk label can be
-- undone as one. (The drop and create of Transaction_accountId_email_idx, raw text_pattern_ops,
-- are left out.)

-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "name" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN     "targetLabel" TEXT;

-- AlterTable
ALTER TABLE "Label" ADD COLUMN     "batchId" TEXT;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "lastAccountId" TEXT;

-- CreateIndex
CREATE INDEX "Label_accountId_batchId_idx" ON "Label"("accountId", "batchId");
