-- AlterTable
ALTER TABLE "Screening" ADD COLUMN     "allowed" JSONB;
