/** Reading the rule settings an account stored: what is kept, what falls back to defaults. */
import { describe, expect, it } from "vitest";
import { storedRuleOverrides } from "./rule-settings.ts";

describe("storedRuleOverrides", () => {
  it.each([
    [
      "a field it knows",
      { rule_farming: { action: "block" } },
      { rule_farming: { action: "block" } },
    ],
    ["a value that no longer validates", { rule_farming: { action: "shout" } }, {}],
    [
      "the choice for a device's second trial, beside a value that no longer validates",
      { rule_ip: { second_trial_on_device: "block" }, rule_farming: { action: "shout" } },
      { rule_ip: { second_trial_on_device: "block" } },
    ],
    ["a rule it does not know", { rule_nope: { action: "block" } }, {}],
    ["not an object", "rules", {}],
    ["a field named constructor", { rule_farming: { constructor: 1 } }, {}],
    [
      "fields named after Object.prototype's, beside a real one",
      { rule_entropy: { toString: "x", hasOwnProperty: 1, valueOf: 2, action: "block" } },
      { rule_entropy: { action: "block" } },
    ],
    [
      "a field named __proto__",
      JSON.parse('{"rule_entropy":{"__proto__":{"action":"block"}}}'),
      {},
    ],
  ])("reads %s", (_what, stored, expected) => {
    expect(storedRuleOverrides(stored)).toEqual(expected);
  });
});
