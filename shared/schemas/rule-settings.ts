/**
 * Rule settings: for each rule, its action (block or review), its mode (live, or monitor:
 * reported, never acting) and its parameters. GET/PUT /api/rule-settings and
 * ruleSettings.get/put, shaped { <rule_key>: { action, mode, ...parameters } }. The on/off
 * flags and the threshold stay in the rules object (spec §3). Defaults live here, once.
 */
import { z } from "zod";
import { BASE_FIELDS, type Field, type Fields } from "../catalog/rule-record.ts";
import { RULE_RECORDS } from "../catalog/rule-records.ts";
import { RULE_KEYS, type RuleKey } from "./rules.ts";

type SettingFields<K extends RuleKey> = typeof BASE_FIELDS & (typeof RULE_RECORDS)[K]["fields"];
type ShapeOf<F> = { [N in keyof F]: F[N] extends Field<infer S> ? S : never };
const strict = <T extends z.core.$ZodLooseShape>(shape: T) => z.strictObject(shape);
type ShapeSchema<K extends RuleKey> = ReturnType<typeof strict<ShapeOf<SettingFields<K>>>>;

/**
 * The order the settings object lists the rules: RULE_KEYS', but with rule_email before rule_ip,
 * as it always has been, so GET /api/rule-settings answers the same bytes.
 */
const SETTINGS_ORDER: readonly RuleKey[] = RULE_KEYS.flatMap((key): RuleKey[] => {
  if (key === "rule_ip") return ["rule_email", "rule_ip"];
  return key === "rule_email" ? [] : [key];
});

function fieldsOf(key: RuleKey): Fields {
  return { ...BASE_FIELDS, ...RULE_RECORDS[key].fields };
}

/** Each rule's settings object: action, mode, and the parameters it reads (its record's). */
export const RULE_SETTING_SHAPES = Object.fromEntries(
  SETTINGS_ORDER.map((key) => [
    key,
    z.strictObject(
      Object.fromEntries(Object.entries(fieldsOf(key)).map(([name, f]) => [name, f.schema])),
    ),
  ]),
) as { [K in RuleKey]: ShapeSchema<K> };

export type RuleSettingsOf = { [K in RuleKey]: z.infer<(typeof RULE_SETTING_SHAPES)[K]> };
export type RuleSetting = RuleSettingsOf[RuleKey];

export const ZRuleSettings = z.strictObject(RULE_SETTING_SHAPES);
export type RuleSettings = RuleSettingsOf;

/** PUT takes any subset of rules, each with any subset of its fields; the rest is kept. */
export const ZRuleSettingsUpdate = z.strictObject(
  Object.fromEntries(
    RULE_KEYS.map((key) => [key, RULE_SETTING_SHAPES[key].partial().optional()]),
  ) as unknown as {
    [K in RuleKey]: z.ZodOptional<ReturnType<(typeof RULE_SETTING_SHAPES)[K]["partial"]>>;
  },
);
export type RuleSettingsUpdate = { [K in RuleKey]?: Partial<RuleSettingsOf[K]> };

/** The defaults: each record's action, live, and its fields' defaults (a fresh object each). */
export const DEFAULT_RULE_SETTINGS: RuleSettings = Object.fromEntries(
  SETTINGS_ORDER.map((key) => [
    key,
    {
      ...Object.fromEntries(Object.entries(fieldsOf(key)).map(([name, f]) => [name, f.default])),
      action: RULE_RECORDS[key].action,
    },
  ]),
) as RuleSettings;

/**
 * What the merchant stored, per rule and field, read over the defaults: unknown rules and
 * fields are dropped and a value that no longer validates falls back to its default.
 */
export function storedRuleOverrides(stored: unknown): RuleSettingsUpdate {
  const source = isRecord(stored) ? stored : {};
  const out: Record<string, Record<string, unknown>> = {};
  for (const key of RULE_KEYS) {
    const entry = source[key];
    if (!isRecord(entry)) continue;
    const shape = RULE_SETTING_SHAPES[key].shape as Record<string, z.ZodType>;
    const kept: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(entry)) {
      // Own fields only: a stored "constructor" must not find Object.prototype's.
      const schema = Object.hasOwn(shape, field) ? shape[field] : undefined;
      if (schema?.safeParse(value).success) kept[field] = value;
    }
    if (Object.keys(kept).length > 0) out[key] = kept;
  }
  return out as RuleSettingsUpdate;
}

/** Settings over the defaults, then the overrides over those (field by field). */
export function mergeRuleSettings(...layers: RuleSettingsUpdate[]): RuleSettings {
  const merged = structuredClone(DEFAULT_RULE_SETTINGS) as Record<string, Record<string, unknown>>;
  for (const layer of layers) {
    for (const [key, fields] of Object.entries(layer)) {
      if (fields) Object.assign(merged[key] as object, fields);
    }
  }
  return merged as RuleSettings;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
