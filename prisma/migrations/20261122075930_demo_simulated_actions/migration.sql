-- AlterTable
ALTER TABLE "StripeAction" ADD COLUMN     "simulated" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Transaction" ADD COLUMN     "demo" BOOLEAN NOT NULL DEFAULT false;
