/** mergeRuleSettings: one rule's override changes that rule alone, for every rule. */
import { describe, expect, it } from "vitest";
import { DEFAULT_RULE_SETTINGS, mergeRuleSettings } from "./rule-settings.ts";
import { RULE_KEYS } from "./rules.ts";

describe("mergeRuleSettings", () => {
  it.each(RULE_KEYS)("an action set on %s leaves every other rule's as it was", (key) => {
    const action = DEFAULT_RULE_SETTINGS[key].action === "block" ? "review" : "block";
    const merged = mergeRuleSettings({ [key]: { action } });
    for (const other of RULE_KEYS) {
      expect({ other, action: merged[other].action }).toEqual({
        other,
        action: other === key ? action : DEFAULT_RULE_SETTINGS[other].action,
      });
    }
  });
});
