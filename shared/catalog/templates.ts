/** The template catalogue (spec §3), in display order; none is built yet. */
import type { TemplateKey } from "../schemas/templates.ts";

export type TemplateEntry = { key: TemplateKey; label: string };

export const TEMPLATE_CATALOG: readonly TemplateEntry[] = [
  { key: "template_one_human_one_trial", label: "One Human One Trial" },
  { key: "template_fake_viral_growth_prevention", label: "Fake Viral Growth Prevention" },
  { key: "template_refund_abuser_flag", label: "Refund Abuser Flag" },
  { key: "template_account_farm_shield", label: "Account Farm Shield" },
  { key: "template_stealth_scraper_deterrent", label: "Stealth Scraper Deterrent" },
  { key: "template_disposable_email_throttle", label: "Disposable Email Throttle" },
];
