-- Charges the merchant's rules answer review join the review queue (decision 014).
-- AlterTable
ALTER TABLE "Transaction" ADD COLUMN     "reviewNote" TEXT,
ADD COLUMN     "reviewReasons" JSONB,
ADD COLUMN     "reviewStatus" TEXT,
ADD COLUMN     "reviewedAt" TIMESTAMP(3),
ADD COLUMN     "reviewedBy" TEXT;

-- CreateIndex
CREATE INDEX "Transaction_review_open" ON "Transaction"("accountId", "created", "chargeId") WHERE ("reviewStatus" = 'open');
