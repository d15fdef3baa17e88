-- Emails are compared lowercased from now on (search and the email rule).
UPDATE "Transaction" SET "email" = lower("email") WHERE "email" <> lower("email");

-- DropIndex
DROP INDEX "Transaction_accountId_email_idx";

-- CreateIndex
CREATE INDEX "Transaction_accountId_email_idx" ON "Transaction"("accountId", "email" text_pattern_ops);
