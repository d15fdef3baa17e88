/** Block list (spec §3): blocked countries (ISO-2) and blocked email providers (domains). */
import { z } from "zod";
import { isCountryCode } from "../catalog/countries.ts";

export const MAX_PROVIDERS = 1000;
export const MAX_DOMAIN_LENGTH = 253;

// Lowercase labels of letters, digits and inner hyphens, at least two of them.
const DOMAIN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

export const ZCountryCode = z
  .string()
  .refine(isCountryCode, { message: "must be an ISO 3166-1 alpha-2 country code, such as US" });

export const ZProviderDomain = z
  .string()
  .max(MAX_DOMAIN_LENGTH, `must be at most ${MAX_DOMAIN_LENGTH} characters`)
  .regex(DOMAIN, "must be a lowercase domain name, such as example.com");

const unique = <T>(items: T[]): T[] => [...new Set(items)];

/** The whole block list, as PUT takes it; duplicates are dropped, order kept. */
export const ZBlocklist = z.strictObject({
  countries: z.array(ZCountryCode).max(300, "lists too many countries").transform(unique),
  email_providers: z
    .array(ZProviderDomain)
    .max(MAX_PROVIDERS, `may list at most ${MAX_PROVIDERS} providers`)
    .transform(unique),
});

export type Blocklist = z.output<typeof ZBlocklist>;

/** What GET returns (no transforms, so it documents as JSON Schema). */
export const ZBlocklistView = z.object({
  countries: z.array(z.string()),
  email_providers: z.array(z.string()),
});

export const DEFAULT_BLOCKLIST: Blocklist = { countries: [], email_providers: [] };

/** What the custom-domain box adds: trimmed and lowercased (spec §5). */
export function normalizeProvider(raw: string): string {
  return raw.trim().toLowerCase();
}
