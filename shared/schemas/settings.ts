/**
 * Merchant settings (spec §3). Secrets (the Stripe secret key and the webhook signing secret)
 * are write-only: reads carry a hint such as "sk_test_…4242", and a blank value (or the hint
 * sent back unchanged) keeps what is stored.
 */
import { z } from "zod";
import { storableInput } from "./storable.ts";

export const APP_NAME_MAX = 100;
const KEY_MAX = 255;

const SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/;
const PUBLISHABLE_KEY = /^pk_(test|live)_[A-Za-z0-9]{8,}$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=_-]{8,}$/;
const HINT_MARK = "…";

/** "sk_test_…4242": the key's prefix and its last four characters, never more. */
export function secretHint(secret: string): string {
  const prefix = /^[a-z]+_(?:(?:test|live)_)?/.exec(secret)?.[0] ?? "";
  return `${prefix}${HINT_MARK}${secret.slice(-4)}`;
}

export function isSecretHint(value: string): boolean {
  return value.includes(HINT_MARK);
}

const optionalMatching = (pattern: RegExp, message: string) =>
  z
    .string({ message: "must be a string" })
    .trim()
    .max(KEY_MAX, `must be at most ${KEY_MAX} characters`)
    .refine((value) => value === "" || pattern.test(value), { message });

/** A write-only secret: blank or an echoed hint means "keep the stored one". */
const writeOnlySecret = (pattern: RegExp, message: string) =>
  z
    .string({ message: "must be a string" })
    .trim()
    .max(KEY_MAX, `must be at most ${KEY_MAX} characters`)
    .refine((value) => value === "" || isSecretHint(value) || pattern.test(value), { message })
    .transform((value) => (isSecretHint(value) ? "" : value));

export const ZStripeSecret = writeOnlySecret(
  SECRET_KEY,
  "must be a Stripe secret key starting with sk_test_, sk_live_, rk_test_ or rk_live_",
);
export const ZStripePublishable = optionalMatching(
  PUBLISHABLE_KEY,
  "must be a Stripe publishable key starting with pk_test_ or pk_live_",
);
export const ZStripeWebhookSecret = writeOnlySecret(
  WEBHOOK_SECRET,
  "must be a Stripe webhook signing secret starting with whsec_",
);

export const ZContactEmail = z
  .string({ message: "must be a string" })
  .trim()
  .max(254, "must be at most 254 characters")
  .refine((value) => value === "" || z.email().safeParse(value).success, {
    message: "must be an email address",
  });

export const ZAppName = z
  .string({ message: "must be a string" })
  .trim()
  .max(APP_NAME_MAX, `must be at most ${APP_NAME_MAX} characters`);

/**
 * What PUT takes. stripe_webhook_url is read-only: accepted so a GET body can be sent back,
 * then ignored. Text the database cannot store (NUL) in any field is a 400 naming it.
 */
export const ZSettingsInput = storableInput(
  z.strictObject({
    app_name: ZAppName,
    contact_email: ZContactEmail,
    stripe_secret: ZStripeSecret,
    stripe_publishable: ZStripePublishable,
    stripe_webhook_secret: ZStripeWebhookSecret.default(""),
    stripe_webhook_url: z.string().nullable().optional(),
  }),
);

export type SettingsInput = z.input<typeof ZSettingsInput>;
export type SettingsUpdate = z.output<typeof ZSettingsInput>;

/** What GET (and PUT) return: secrets only as hints ("" when none is stored). */
export const ZSettingsView = z.object({
  app_name: z.string(),
  contact_email: z.string(),
  stripe_secret: z.string(),
  stripe_publishable: z.string(),
  stripe_webhook_secret: z.string(),
  stripe_webhook_url: z.string().nullable(),
});

export type SettingsView = z.infer<typeof ZSettingsView>;

export const DEFAULT_SETTINGS: SettingsView = {
  app_name: "",
  contact_email: "",
  stripe_secret: "",
  stripe_publishable: "",
  stripe_webhook_secret: "",
  stripe_webhook_url: null,
};
