/** How rules, templates and rule settings read on the Rules, Templates and Screenings pages. */
import { fieldName } from "../../../shared/catalog/field-names.ts";
import { RULE_CATALOG, SETTING_CHOICES, SETTING_LABELS } from "../../../shared/catalog/rules.ts";
import { TEMPLATE_CATALOG } from "../../../shared/catalog/templates.ts";
import type { ReasonKey } from "../../../shared/schemas/rules.ts";
import type { TemplateKey } from "../../../shared/schemas/templates.ts";

const RULE_LABELS = new Map<string, string>(RULE_CATALOG.map((rule) => [rule.key, rule.label]));
const TEMPLATE_LABELS = new Map<string, string>(TEMPLATE_CATALOG.map((t) => [t.key, t.label]));

export function ruleLabel(key: ReasonKey): string {
  if (key === "risk_score") return "Risk score";
  return RULE_LABELS.get(key) ?? key;
}

export function templateLabel(key: TemplateKey): string {
  return TEMPLATE_LABELS.get(key) ?? key;
}

export function settingLabel(field: string): string {
  return SETTING_LABELS[field] ?? field.replaceAll("_", " ");
}

/** A setting chosen from a few values: each value with its words; undefined for the others. */
export function settingChoices(field: string): readonly (readonly [string, string])[] | undefined {
  return Object.hasOwn(SETTING_CHOICES, field) ? SETTING_CHOICES[field] : undefined;
}

/** "On through One Human One Trial and Account Farm Shield". */
export function drivenByText(templates: readonly TemplateKey[]): string {
  const names = templates.map(templateLabel);
  const list =
    names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `On through ${list}`;
}

/** A setting's value as a person reads it: yes/no, lists joined, null explained per field. */
export function formatSettingValue(field: string, value: unknown): string {
  if (value === null) {
    if (field === "event_types") return "every event";
    if (field === "disposable_signups_per_hour") return "none (all blocked)";
    return "-";
  }
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.join(", ");
  return String(value);
}

/** A changed key as a person reads it, nested keys joined: "rule_email.action" → "… · Action". */
export function changeName(path: string): string {
  return path.split(".").map(fieldName).join(" · ");
}

/**
 * A score model's version as a person reads it: "default-5" (the shipped weights' fifth
 * version) is "Warden's default weights, version 5"; "acct-3" (a fit on the account's labels)
 * is "your weights, version 3"; anything else reads as itself.
 */
export function weightsName(version: string): string {
  const shipped = /^default-(\d+)$/.exec(version);
  if (shipped) return `Warden's default weights, version ${shipped[1]}`;
  const fitted = /^acct-(\d+)$/.exec(version);
  if (fitted) return `your weights, version ${fitted[1]}`;
  return version;
}
