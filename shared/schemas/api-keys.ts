/**
 * API keys: a merchant's backend screens events with a secret key; a publishable key (for
 * the browser collector) can only collect. Keys are shown once; only a SHA-256 is stored.
 */
import { z } from "zod";
import { storableInput } from "./storable.ts";

export const API_KEY_KINDS = ["secret", "publishable"] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/** What every key starts with, so a leaked one is recognisable (and scannable). */
export const API_KEY_PREFIX: Record<ApiKeyKind, string> = {
  secret: "wdn_sk_",
  publishable: "wdn_pk_",
};

export const ZApiKeyCreate = storableInput(
  z.strictObject({
    name: z
      .string({ message: "must be a string" })
      .trim()
      .min(1, "must not be empty")
      .max(100, "must be at most 100 characters"),
    kind: z.enum(API_KEY_KINDS, { message: "must be secret or publishable" }).default("secret"),
  }),
);
export type ApiKeyCreate = z.input<typeof ZApiKeyCreate>;

/** A key as listed: its name and first characters, never the key. */
export const ZApiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(API_KEY_KINDS),
  /** The first characters of the key, e.g. "wdn_sk_3fA9". */
  start: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof ZApiKeyView>;

/** The answer to a create: the only time the whole key is shown. */
export const ZApiKeyCreated = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(API_KEY_KINDS),
  key: z.string(),
  created_at: z.string(),
});
export type ApiKeyCreated = z.infer<typeof ZApiKeyCreated>;
