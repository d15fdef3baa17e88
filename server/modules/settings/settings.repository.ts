/** The only code that touches Prisma for a merchant's settings; secrets arrive already sealed. */
import type { PrismaClient } from "../../db/generated/client.ts";

export type SealedSecret = { cipher: string; hint: string };

export type SettingsChange = {
  appName: string;
  contactEmail: string;
  stripePublishable: string;
  /** Omitted: keep the stored secret. */
  stripeSecret?: SealedSecret;
  stripeWebhookSecret?: SealedSecret;
};

export function createSettingsRepository(prisma: PrismaClient) {
  return {
    /** The settings row, created blank on first read. */
    async findOrCreate(accountId: string) {
      const existing = await prisma.merchantSettings.findUnique({ where: { accountId } });
      if (existing) return existing;
      await prisma.merchantSettings.createMany({ data: [{ accountId }], skipDuplicates: true });
      return prisma.merchantSettings.findUniqueOrThrow({ where: { accountId } });
    },

    save(accountId: string, change: SettingsChange) {
      const data = {
        appName: change.appName,
        contactEmail: change.contactEmail,
        stripePublishable: change.stripePublishable,
        ...(change.stripeSecret && {
          stripeSecretCipher: change.stripeSecret.cipher,
          stripeSecretHint: change.stripeSecret.hint,
        }),
        ...(change.stripeWebhookSecret && {
          stripeWebhookSecretCipher: change.stripeWebhookSecret.cipher,
          stripeWebhookSecretHint: change.stripeWebhookSecret.hint,
        }),
      };
      return prisma.merchantSettings.upsert({
        where: { accountId },
        create: { accountId, ...data },
        update: data,
      });
    },

    /** Stores only the webhook signing secret (the demo, or an endpoint Warden registered). */
    saveWebhookSecret(accountId: string, secret: SealedSecret) {
      const data = {
        stripeWebhookSecretCipher: secret.cipher,
        stripeWebhookSecretHint: secret.hint,
      };
      return prisma.merchantSettings.upsert({
        where: { accountId },
        create: { accountId, ...data },
        update: data,
      });
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
export type SettingsRow = Awaited<ReturnType<SettingsRepository["findOrCreate"]>>;
