/** Templates settings (spec §3): one flag per plug-and-play template. */
import { z } from "zod";

export const TEMPLATE_KEYS = [
  "template_one_human_one_trial",
  "template_fake_viral_growth_prevention",
  "template_refund_abuser_flag",
  "template_account_farm_shield",
  "template_stealth_scraper_deterrent",
  "template_disposable_email_throttle",
] as const;

export type TemplateKey = (typeof TEMPLATE_KEYS)[number];

const flag = z.boolean({ message: "must be true or false" });

/** The whole templates object, as PUT takes it and GET returns it. */
export const ZTemplates = z.strictObject(
  Object.fromEntries(TEMPLATE_KEYS.map((key) => [key, flag])) as Record<TemplateKey, typeof flag>,
);

export type Templates = z.infer<typeof ZTemplates>;

export const DEFAULT_TEMPLATES: Templates = Object.fromEntries(
  TEMPLATE_KEYS.map((key) => [key, false]),
) as Templates;

/** Merges a stored object over the defaults; anything that is not a boolean stays false. */
export function templatesFromStored(stored: unknown): Templates {
  const source =
    typeof stored === "object" && stored !== null ? (stored as Record<string, unknown>) : {};
  const templates: Templates = { ...DEFAULT_TEMPLATES };
  for (const key of TEMPLATE_KEYS) {
    if (typeof source[key] === "boolean") templates[key] = source[key];
  }
  return templates;
}
