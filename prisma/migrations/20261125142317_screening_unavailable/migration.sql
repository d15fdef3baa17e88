-- AlterTable
ALTER TABLE "Screening" ADD COLUMN     "unavailable" JSONB;
