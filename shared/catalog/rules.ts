/**
 * The rule catalogue: every rule key with its label and group, in display order (spec §9),
 * and the names people read for each rule setting. All read from the rule records
 * (rule-records.ts).
 */
import type { RuleKey } from "../schemas/rules.ts";
import { BASE_FIELDS, type Field, type RuleGroup } from "./rule-record.ts";
import { RULE_DISPLAY_ORDER, RULE_RECORDS } from "./rule-records.ts";

export type { RuleGroup };

export const RULE_GROUPS: { id: RuleGroup; title: string }[] = [
  { id: "standard", title: "Standard Detection Rule" },
  { id: "advanced", title: "Advanced Detection Rules" },
];

export type RuleEntry = { key: RuleKey; label: string; group: RuleGroup };

export const RULE_CATALOG: readonly RuleEntry[] = RULE_DISPLAY_ORDER.map((key) => ({
  key,
  label: RULE_RECORDS[key].label,
  group: RULE_RECORDS[key].group,
}));

/** Every setting of every rule (action and mode first), by name; one label per name. */
const SETTINGS: [string, Field][] = [
  ...Object.entries(BASE_FIELDS),
  ...Object.values(RULE_RECORDS).flatMap((record): [string, Field][] =>
    Object.entries(record.fields),
  ),
];

/** What a person reads for each rule setting (action, mode and every parameter). */
export const SETTING_LABELS: Record<string, string> = Object.fromEntries(
  SETTINGS.map(([name, f]) => [name, f.label]),
);

/** Settings chosen from a few values: each value and what a person reads for it, in order. */
export const SETTING_CHOICES: Record<string, readonly (readonly [string, string])[]> =
  Object.fromEntries(SETTINGS.flatMap(([name, f]) => (f.choices ? [[name, f.choices]] : [])));
