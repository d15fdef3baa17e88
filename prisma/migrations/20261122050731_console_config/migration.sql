-- CreateTable
CREATE TABLE "RuleSettings" (
    "accountId" TEXT NOT NULL,
    "values" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RuleSettings_pkey" PRIMARY KEY ("accountId")
);

-- CreateTable
CREATE TABLE "TemplateSettings" (
    "accountId" TEXT NOT NULL,
    "values" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TemplateSettings_pkey" PRIMARY KEY ("accountId")
);

-- CreateTable
CREATE TABLE "Blocklist" (
    "accountId" TEXT NOT NULL,
    "countries" TEXT[],
    "emailProviders" TEXT[],
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Blocklist_pkey" PRIMARY KEY ("accountId")
);

-- CreateTable
CREATE TABLE "MerchantSettings" (
    "accountId" TEXT NOT NULL,
    "appName" TEXT NOT NULL DEFAULT '',
    "contactEmail" TEXT NOT NULL DEFAULT '',
    "stripePublishable" TEXT NOT NULL DEFAULT '',
    "stripeSecretCipher" TEXT,
    "stripeSecretHint" TEXT,
    "stripeWebhookSecretCipher" TEXT,
    "stripeWebhookSecretHint" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MerchantSettings_pkey" PRIMARY KEY ("accountId")
);

-- AddForeignKey
ALTER TABLE "RuleSettings" ADD CONSTRAINT "RuleSettings_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TemplateSettings" ADD CONSTRAINT "TemplateSettings_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Blocklist" ADD CONSTRAINT "Blocklist_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MerchantSettings" ADD CONSTRAINT "MerchantSettings_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
