/**
 * Allowed origins (Settings → API keys): the merchant's own sites. warden.js may collect only
 * from a page on one of them, and rule_referrer_mismatch compares an event's origin and
 * referrer with them. A collect from any other origin is refused, and the newest refused
 * origins are offered in the console as suggestions to allow.
 */
import { z } from "zod";
import { storableString } from "./storable.ts";

/** The most origins an account lists. */
export const MAX_ALLOWED_ORIGINS = 100;

/** An origin as browsers send it: scheme, host and port, no path (lowercased). */
export const ZOrigin = storableString()
  .trim()
  .toLowerCase()
  .regex(/^https?:\/\/[^\s/?#]+$/, "must be an origin such as https://shop.example.com")
  .max(2048, "must be at most 2048 characters")
  .refine((value) => URL.canParse(value) && new URL(value).origin === value, {
    message: "must be an origin such as https://shop.example.com (no path, default port left out)",
  });

export const ZAllowedOriginsInput = z.strictObject({
  origins: z
    .array(ZOrigin)
    .max(MAX_ALLOWED_ORIGINS, `may list at most ${MAX_ALLOWED_ORIGINS} origins`),
});
export type AllowedOriginsInput = z.infer<typeof ZAllowedOriginsInput>;

export const ZAllowOriginInput = z.strictObject({ origin: ZOrigin });

/** An origin whose collects were refused, as the console suggests it. */
export const ZRefusedOrigin = z.object({
  origin: z.string(),
  reason: z.string(),
  /** ISO 8601: the first and the latest refusal Warden recorded. */
  first_at: z.string(),
  last_at: z.string(),
  /** Refusals recorded (at most one a minute per Warden instance). */
  count: z.number().int(),
});
export type RefusedOrigin = z.infer<typeof ZRefusedOrigin>;

export const ZAllowedOriginsView = z.object({
  origins: z.array(z.string()),
  /** Origins refused lately and not allowed since, newest first. */
  refused: z.array(ZRefusedOrigin),
});
export type AllowedOriginsView = z.infer<typeof ZAllowedOriginsView>;
