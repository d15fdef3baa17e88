-- The decision loop: review state on screenings, labels as history, allow lists.
-- (The diff also re-created Transaction_accountId_email_idx, a known artefact of its raw
-- text_pattern_ops class. That drop and create are left out: the index is unchanged.)

-- CreateEnum
CREATE TYPE "LabelSubject" AS ENUM ('screening', 'charge');

-- CreateEnum
CREATE TYPE "LabelValue" AS ENUM ('fraud', 'legitimate');

-- CreateEnum
CREATE TYPE "LabelSource" AS ENUM ('person', 'api', 'stripe');

-- CreateEnum
CREATE TYPE "AllowKind" AS ENUM ('email', 'email_domain', 'user_id', 'ip_cidr', 'device', 'card_fingerprint');

-- AlterTable
ALTER TABLE "Screening" ADD COLUMN     "reviewNote" TEXT,
ADD COLUMN     "reviewStatus" TEXT,
ADD COLUMN     "reviewedAt" TIMESTAMP(3),
ADD COLUMN     "reviewedBy" TEXT;

-- CreateTable
CREATE TABLE "Label" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "subjectKind" "LabelSubject" NOT NULL,
    "subjectId" TEXT NOT NULL,
    "label" "LabelValue" NOT NULL,
    "source" "LabelSource" NOT NULL,
    "who" TEXT NOT NULL,
    "note" TEXT,
    "sourceRef" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Label_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AllowEntry" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "kind" "AllowKind" NOT NULL,
    "value" TEXT NOT NULL,
    "note" TEXT,
    "addedBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),

    CONSTRAINT "AllowEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Label_accountId_subjectKind_subjectId_createdAt_idx" ON "Label"("accountId", "subjectKind", "subjectId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Label_accountId_createdAt_idx" ON "Label"("accountId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Label_accountId_sourceRef_key" ON "Label"("accountId", "sourceRef");

-- CreateIndex
CREATE UNIQUE INDEX "AllowEntry_accountId_kind_value_key" ON "AllowEntry"("accountId", "kind", "value");

-- CreateIndex
CREATE INDEX "Screening_review_open" ON "Screening"("accountId", "createdAt", "id") WHERE (decision = 'review' AND "reviewStatus" IS NULL);

-- AddForeignKey
ALTER TABLE "Label" ADD CONSTRAINT "Label_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AllowEntry" ADD CONSTRAINT "AllowEntry_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
