/**
 * Unsaved edits in the rules' Settings forms. The Rules page holds them (not each form) so
 * "Test on history" can run them: they are converted as Save converts them, validated by the
 * PUT's own schema (so an error names the same field, e.g. "rule_ip.window_days"), and laid
 * over the settings that run.
 */
import {
  type RuleSettings,
  type RuleSettingsUpdate,
  ZRuleSettingsUpdate,
} from "../../../../shared/schemas/rule-settings.ts";
import { RULE_KEYS, type RuleKey } from "../../../../shared/schemas/rules.ts";
import {
  formatSettingValue,
  ruleLabel,
  settingChoices,
  settingLabel,
} from "../../lib/rule-format.ts";

/** Per rule, what each edited field's box holds (a number field holds the typed text). */
export type Drafts = Partial<Record<RuleKey, Record<string, unknown>>>;

export type DraftSettings =
  | { ok: true; settings: RuleSettings; changed: RuleSettingsUpdate }
  | { ok: false; errors: Record<string, string> };

/** The settings that run with every rule's unsaved edits over them, or the edits' field errors. */
export function withDrafts(settings: RuleSettings, drafts: Drafts): DraftSettings {
  const update: Record<string, Record<string, unknown>> = {};
  for (const key of RULE_KEYS) {
    const edits = drafts[key];
    if (!edits) continue;
    const changes = changedFields(settings[key] as Record<string, unknown>, edits);
    if (Object.keys(changes).length > 0) update[key] = changes;
  }
  const parsed = ZRuleSettingsUpdate.safeParse(update);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const path = issue.path.join(".");
      errors[path] ??= issue.message;
    }
    return { ok: false, errors };
  }
  const merged = structuredClone(settings) as Record<string, Record<string, unknown>>;
  for (const [key, fields] of Object.entries(parsed.data)) {
    if (fields) Object.assign(merged[key] as object, fields);
  }
  return { ok: true, settings: merged as RuleSettings, changed: parsed.data as RuleSettingsUpdate };
}

/** "Signup velocity (per IP per hour 1)", one entry per rule with unsaved edits. */
export function describeChanges(changed: RuleSettingsUpdate): string[] {
  return RULE_KEYS.flatMap((key) => {
    const fields = changed[key];
    if (!fields || Object.keys(fields).length === 0) return [];
    const list = Object.entries(fields)
      .map(([field, value]) => `${settingLabel(field)} ${formatSettingValue(field, value)}`)
      .join(", ");
    return [`${ruleLabel(key)} (${list})`];
  });
}

/** The edited fields whose value differs from what runs, converted to what the API takes. */
export function changedFields(current: Record<string, unknown>, edits: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [field, raw] of Object.entries(edits)) {
    // A chosen value (a select's) is sent as it is; typed text is a number field's.
    const value = typeof raw === "string" && !settingChoices(field) ? toNumber(raw) : raw;
    if (JSON.stringify(value) !== JSON.stringify(current[field])) out[field] = value;
  }
  return out;
}

/** Typed text as a number; blank or unreadable is sent as-is for the schema to name. */
function toNumber(text: string): unknown {
  if (text.trim() === "") return null;
  const number = Number(text);
  return Number.isFinite(number) ? number : text;
}
