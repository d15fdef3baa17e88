/**
 * How the merchant's rule flags, templates and own rule settings combine (one function, used
 * by the server's policy and by the Rules page to show where a template drives a rule):
 * a rule runs when its flag is on or a template turns it on; its settings are the defaults,
 * then each enabled template's values (a check any of them turns on stays on), then the
 * merchant's own values, which win.
 */
import {
  mergeRuleSettings,
  type RuleSettings,
  type RuleSettingsUpdate,
} from "../schemas/rule-settings.ts";
import { RULE_KEYS, type RuleKey, type Rules } from "../schemas/rules.ts";
import type { TemplateKey, Templates } from "../schemas/templates.ts";
import { TEMPLATE_CATALOG } from "./templates.ts";

export type EffectiveRules = {
  enabled: Record<RuleKey, boolean>;
  settings: RuleSettings;
  /** The enabled templates that turn each rule on. */
  drivenBy: Record<RuleKey, TemplateKey[]>;
};

export function effectiveRules(
  rules: Rules,
  templates: Templates,
  own: RuleSettingsUpdate,
): EffectiveRules {
  const drivenBy = Object.fromEntries(RULE_KEYS.map((key) => [key, [] as TemplateKey[]])) as Record<
    RuleKey,
    TemplateKey[]
  >;
  const presets: RuleSettingsUpdate[] = [];
  for (const template of TEMPLATE_CATALOG) {
    if (!templates[template.key]) continue;
    for (const rule of template.rules) drivenBy[rule].push(template.key);
    presets.push(template.settings);
  }
  const enabled = Object.fromEntries(
    RULE_KEYS.map((key) => [key, rules[key] || drivenBy[key].length > 0]),
  ) as Record<RuleKey, boolean>;
  return { enabled, settings: mergeRuleSettings(...presets, partsOn(presets), own), drivenBy };
}

/**
 * A check one enabled template turns on stays on when another turns it off: the Refund Abuser
 * Flag turns rule_farming's account checks off to flag refunds alone, and with Account Farm
 * Shield on too both must run. So among presets, a true flag wins over a false one; the
 * merchant's own value still wins over both.
 */
function partsOn(presets: readonly RuleSettingsUpdate[]): RuleSettingsUpdate {
  const on: Record<string, Record<string, boolean>> = {};
  for (const preset of presets) {
    for (const [rule, fields] of Object.entries(preset)) {
      for (const [field, value] of Object.entries(fields ?? {})) {
        if (value !== true) continue;
        on[rule] ??= {};
        (on[rule] as Record<string, boolean>)[field] = true;
      }
    }
  }
  return on as RuleSettingsUpdate;
}
