-- AlterTable
ALTER TABLE "Screening" ADD COLUMN     "contributions" JSONB;
