-- CreateTable
CREATE TABLE "ScoreSettings" (
    "accountId" TEXT NOT NULL,
    "thresholds" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ScoreSettings_pkey" PRIMARY KEY ("accountId")
);

-- CreateTable
CREATE TABLE "ScoreModel" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "weights" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "metrics" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "adoptedAt" TIMESTAMP(3),
    "adoptedBy" TEXT,

    CONSTRAINT "ScoreModel_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ScoreModel_accountId_status_idx" ON "ScoreModel"("accountId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ScoreModel_accountId_version_key" ON "ScoreModel"("accountId", "version");

-- CreateIndex
CREATE UNIQUE INDEX "ScoreModel_one_adopted" ON "ScoreModel"("accountId") WHERE (status = 'adopted');


-- AddForeignKey
ALTER TABLE "ScoreSettings" ADD CONSTRAINT "ScoreSettings_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScoreModel" ADD CONSTRAINT "ScoreModel_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
