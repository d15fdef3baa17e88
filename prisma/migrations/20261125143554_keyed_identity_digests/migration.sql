-- AlterTable: rows stored so far hold unkeyed digests (decision 013), new rows say keyed.
ALTER TABLE "ScreeningIdentity" ADD COLUMN     "keyed" BOOLEAN NOT NULL DEFAULT false;
