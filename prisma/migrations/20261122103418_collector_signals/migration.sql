-- AlterTable
ALTER TABLE "Screening" ADD COLUMN     "collectIp" TEXT,
ADD COLUMN     "signals" JSONB;

-- CreateTable
CREATE TABLE "SignalToken" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "consumedAt" TIMESTAMP(3),
    "origin" TEXT NOT NULL,
    "collectIp" TEXT NOT NULL,
    "signals" JSONB NOT NULL,

    CONSTRAINT "SignalToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SignalToken_tokenHash_key" ON "SignalToken"("tokenHash");

-- CreateIndex
CREATE INDEX "SignalToken_expiresAt_idx" ON "SignalToken"("expiresAt");

-- AddForeignKey
ALTER TABLE "SignalToken" ADD CONSTRAINT "SignalToken_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
