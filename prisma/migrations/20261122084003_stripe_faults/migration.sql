-- AlterEnum
ALTER TYPE "StripeActionStatus" ADD VALUE 'needs_attention';

-- AlterTable
ALTER TABLE "ImportJob" ADD COLUMN     "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
