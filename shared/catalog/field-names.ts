/**
 * What a person reads for a key of the account's configuration: a rule's or a template's name
 * as the Rules and Templates pages show it, a rule setting's label, a setting's or a retention
 * kind's words; a key no table names reads as words ("trial_start" → "Trial start"), never as
 * the key. The import's preview uses it, and so can any page that shows what changed.
 */
import { RETENTION, type RetentionKind } from "../privacy/retention.ts";
import { RULE_CATALOG, SETTING_LABELS } from "./rules.ts";
import { TEMPLATE_CATALOG } from "./templates.ts";

const RULE_NAMES = new Map<string, string>(RULE_CATALOG.map((r) => [r.key, r.label]));
const TEMPLATE_NAMES = new Map<string, string>(TEMPLATE_CATALOG.map((t) => [t.key, t.label]));

const NAMES: Record<string, string> = {
  risk_level_threshold: "Risk level threshold",
  app_name: "App name",
  contact_email: "Contact email",
  stripe_publishable: "Stripe publishable key",
  require_two_factor: "Require two-factor sign-in",
  audit_retention_days: "Keep audit log events (days)",
  review: "Review at",
  block: "Block at",
};

/** A key no table names as words: "trial_start" → "Trial start". */
function words(key: string): string {
  const text = key.replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The name a person reads for a configuration key (see the file's comment). */
export function fieldName(key: string): string {
  return (
    RULE_NAMES.get(key) ??
    TEMPLATE_NAMES.get(key) ??
    NAMES[key] ??
    SETTING_LABELS[key] ??
    (Object.hasOwn(RETENTION, key)
      ? `Keep ${RETENTION[key as RetentionKind].label} (days)`
      : words(key))
  );
}
