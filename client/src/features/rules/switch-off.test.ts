import { describe, expect, it } from "vitest";
import { DEFAULT_RULES, type Rules } from "../../../../shared/schemas/rules.ts";
import { DEFAULT_TEMPLATES, type Templates } from "../../../../shared/schemas/templates.ts";
import { switchesShown, switchOff } from "./switch-off.ts";

const rules = (on: Partial<Rules>): Rules => ({ ...DEFAULT_RULES, ...on });
const templates = (on: Partial<Templates>): Templates => ({ ...DEFAULT_TEMPLATES, ...on });
const ONE_HUMAN = templates({ template_one_human_one_trial: true });

describe("a rule's switch as the server runs it", () => {
  it("is on through a template even when the rule's own flag is off", () => {
    const shown = switchesShown(rules({}), ONE_HUMAN);
    expect(shown.enabled.rule_ip).toBe(true);
    expect(shown.drivenBy.rule_ip).toEqual(["template_one_human_one_trial"]);
    expect(shown.enabled.rule_scraping).toBe(false);
  });
});

describe("turning a rule's switch off", () => {
  it.each([
    {
      name: "a rule on by itself only: its own flag goes off",
      rule: "rule_scraping" as const,
      rules: rules({ rule_scraping: true }),
      templates: ONE_HUMAN,
      want: { through: "own" },
    },
    {
      name: "a rule on through one template: the template goes off, and its other rules with it",
      rule: "rule_ip" as const,
      rules: rules({}),
      templates: ONE_HUMAN,
      want: {
        through: "templates",
        templates: ["template_one_human_one_trial"],
        alsoStops: [
          "rule_email",
          "rule_farming",
          "rule_timezone_mismatch",
          "rule_device_fingerprint_reuse",
        ],
      },
    },
    {
      name: "the template's other rules kept on by their own flag or another template go on",
      rule: "rule_ip" as const,
      rules: rules({ rule_email: true }),
      templates: templates({
        template_one_human_one_trial: true,
        template_account_farm_shield: true,
      }),
      want: {
        through: "templates",
        templates: ["template_one_human_one_trial"],
        alsoStops: ["rule_timezone_mismatch"],
      },
    },
    {
      name: "a rule on through two templates and by itself: both go off, and its own flag",
      rule: "rule_device_fingerprint_reuse" as const,
      rules: rules({ rule_device_fingerprint_reuse: true }),
      templates: templates({
        template_one_human_one_trial: true,
        template_account_farm_shield: true,
      }),
      want: {
        through: "templates",
        templates: ["template_one_human_one_trial", "template_account_farm_shield"],
        alsoStops: [
          "rule_ip",
          "rule_email",
          "rule_farming",
          "rule_signup_velocity",
          "rule_timezone_mismatch",
        ],
      },
    },
  ])("$name", ({ rule, rules: before, templates: on, want }) => {
    const off = switchOff(rule, before, on);
    expect(off).toMatchObject(want);
    expect(off.rules[rule]).toBe(false);
    // What the page will save leaves the rule off on the server.
    const nextTemplates = off.through === "templates" ? off.nextTemplates : on;
    expect(switchesShown(off.rules, nextTemplates).enabled[rule]).toBe(false);
  });
});
