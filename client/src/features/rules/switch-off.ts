/**
 * What turning a rule's switch off does on the server. A rule runs when its own flag is on or
 * an enabled template turns it on (effectiveRules), so a rule a template drives cannot be
 * stopped by its own flag: only by turning those templates off, which also stops any of
 * their other rules that nothing else keeps on.
 */
import { effectiveRules } from "../../../../shared/catalog/effective-rules.ts";
import { RULE_KEYS, type RuleKey, type Rules } from "../../../../shared/schemas/rules.ts";
import type { TemplateKey, Templates } from "../../../../shared/schemas/templates.ts";

export type SwitchOff =
  /** No template drives it: its own flag goes off, and that stops it. */
  | { through: "own"; rules: Rules }
  /** Templates drive it: they go off (and its own flag), which also stops `alsoStops`. */
  | {
      through: "templates";
      templates: TemplateKey[];
      alsoStops: RuleKey[];
      rules: Rules;
      nextTemplates: Templates;
    };

/** Each rule's switch as the server runs it: on by its own flag or through a template. */
export function switchesShown(rules: Rules, templates: Templates) {
  const { enabled, drivenBy } = effectiveRules(rules, templates, {});
  return { enabled, drivenBy };
}

export function switchOff(rule: RuleKey, rules: Rules, templates: Templates): SwitchOff {
  const next = { ...rules, [rule]: false };
  const before = switchesShown(rules, templates);
  const drivers = before.drivenBy[rule];
  if (drivers.length === 0) return { through: "own", rules: next };
  const nextTemplates = { ...templates };
  for (const template of drivers) nextTemplates[template] = false;
  const after = switchesShown(next, nextTemplates).enabled;
  return {
    through: "templates",
    templates: drivers,
    alsoStops: RULE_KEYS.filter((key) => key !== rule && before.enabled[key] && !after[key]),
    rules: next,
    nextTemplates,
  };
}
