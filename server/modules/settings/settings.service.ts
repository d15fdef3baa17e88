/**
 * Settings use cases. The Stripe secret key and webhook signing secret are sealed with
 * AES-256-GCM before they reach the repository and only their hints are ever returned;
 * a blank secret in an update keeps the stored one. A new secret key must pass Stripe's
 * check before it is saved; with an https PUBLIC_URL, Warden then registers its own webhook
 * endpoint (or reuses the one it registered before) and keeps the signing secret. Actions that
 * waited for a working key run once a new one is saved.
 */
import {
  type SettingsUpdate,
  type SettingsView,
  secretHint,
} from "../../../shared/schemas/settings.ts";
import type { ChangeFeed } from "../../db/change-feed.ts";
import { TOPICS } from "../../db/change-topics.ts";
import type { Encryptor } from "../../lib/encryption.ts";
import type { StripeConnectService } from "../stripe/connect/stripe-connect.service.ts";
import type { SealedSecret, SettingsRepository, SettingsRow } from "./settings.repository.ts";

type SecretField = "stripe_secret" | "stripe_webhook_secret";

type Deps = {
  repo: SettingsRepository;
  encryptor: Encryptor;
  /** The account's Stripe webhook URL (PUBLIC_URL/webhooks/stripe/<endpointId>). */
  webhookUrlFor(accountId: string): Promise<string | null>;
  connect: Pick<StripeConnectService, "checkKey" | "registerEndpoint">;
  publicUrl: string;
  /** A new secret key passed Stripe's check and was saved. */
  onSecretKeySaved?: (accountId: string) => Promise<void>;
  /** The account's settings were saved: caches of them (the webhook secret) drop their copy. */
  onChange?: (accountId: string) => void;
};

/** What the settings service calls after a change, so every instance drops cached settings. */
export function settingsChangeNotifier(changes: ChangeFeed): (accountId: string) => void {
  return (accountId) => changes.publish({ topic: TOPICS.settings, accountId });
}

export function createSettingsService({
  repo,
  encryptor,
  webhookUrlFor,
  connect,
  publicUrl,
  onSecretKeySaved,
  onChange,
}: Deps) {
  // The associated data ties each ciphertext to its account and field.
  const aad = (accountId: string, field: SecretField) => `${accountId}:${field}`;

  const seal = (accountId: string, field: SecretField, value: string): SealedSecret | undefined =>
    value === ""
      ? undefined
      : { cipher: encryptor.seal(value, aad(accountId, field)), hint: secretHint(value) };

  const view = async (row: SettingsRow): Promise<SettingsView> => ({
    app_name: row.appName,
    contact_email: row.contactEmail,
    stripe_secret: row.stripeSecretHint ?? "",
    stripe_publishable: row.stripePublishable,
    stripe_webhook_secret: row.stripeWebhookSecretHint ?? "",
    stripe_webhook_url: await webhookUrlFor(row.accountId),
  });

  const service = {
    async get(accountId: string): Promise<SettingsView> {
      return view(await repo.findOrCreate(accountId));
    },

    async put(accountId: string, update: SettingsUpdate): Promise<SettingsView> {
      const newKey = update.stripe_secret;
      if (newKey) await connect.checkKey(newKey);
      const row = await repo.save(accountId, {
        appName: update.app_name,
        contactEmail: update.contact_email,
        stripePublishable: update.stripe_publishable,
        stripeSecret: seal(accountId, "stripe_secret", update.stripe_secret),
        stripeWebhookSecret: seal(accountId, "stripe_webhook_secret", update.stripe_webhook_secret),
      });
      onChange?.(accountId);
      if (newKey) await onSecretKeySaved?.(accountId);
      if (newKey && publicUrl.startsWith("https:") && !update.stripe_webhook_secret) {
        const url = await webhookUrlFor(accountId);
        const haveSecret = row.stripeWebhookSecretCipher !== null;
        const secret = url ? await connect.registerEndpoint(newKey, url, { haveSecret }) : null;
        if (secret) await service.setWebhookSecret(accountId, secret);
        return service.get(accountId);
      }
      return view(row);
    },

    /** Sets the webhook signing secret alone, sealed like any other secret. */
    async setWebhookSecret(accountId: string, secret: string): Promise<void> {
      const sealed = seal(accountId, "stripe_webhook_secret", secret);
      if (!sealed) return;
      await repo.saveWebhookSecret(accountId, sealed);
      onChange?.(accountId);
    },

    /** The decrypted Stripe credentials, for server-side Stripe calls only; never for a client. */
    async stripeCredentials(
      accountId: string,
    ): Promise<{ secretKey: string | null; webhookSecret: string | null }> {
      const row = await repo.findOrCreate(accountId);
      const open = (cipher: string | null, field: SecretField) =>
        cipher === null ? null : encryptor.open(cipher, aad(accountId, field));
      return {
        secretKey: open(row.stripeSecretCipher, "stripe_secret"),
        webhookSecret: open(row.stripeWebhookSecretCipher, "stripe_webhook_secret"),
      };
    },
  };
  return service;
}

export type SettingsService = ReturnType<typeof createSettingsService>;
