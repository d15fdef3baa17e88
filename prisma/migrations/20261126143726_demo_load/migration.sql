-- CreateTable
CREATE TABLE "DemoLoad" (
    "accountId" TEXT NOT NULL,
    "loadedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "rulesTurnedOn" TEXT[],
    "rulesAfter" JSONB,
    "countriesAdded" TEXT[],
    "countriesAfter" TEXT[],

    CONSTRAINT "DemoLoad_pkey" PRIMARY KEY ("accountId")
);

-- AddForeignKey
ALTER TABLE "DemoLoad" ADD CONSTRAINT "DemoLoad_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
