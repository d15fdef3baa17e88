import { describe, expect, it } from "vitest";
import { DEFAULT_RULE_SETTINGS } from "../schemas/rule-settings.ts";
import { DEFAULT_RULES } from "../schemas/rules.ts";
import { DEFAULT_TEMPLATES } from "../schemas/templates.ts";
import { effectiveRules } from "./effective-rules.ts";

describe("effectiveRules", () => {
  it("with nothing on, every rule is off with its defaults", () => {
    const result = effectiveRules(DEFAULT_RULES, DEFAULT_TEMPLATES, {});
    expect(Object.values(result.enabled).every((on) => !on)).toBe(true);
    expect(result.settings).toEqual(DEFAULT_RULE_SETTINGS);
  });

  it.each([
    {
      template: "template_one_human_one_trial" as const,
      on: ["rule_ip", "rule_device_fingerprint_reuse", "rule_email"],
      values: { rule_email: { event_types: ["trial_start"] } },
    },
    {
      template: "template_stealth_scraper_deterrent" as const,
      on: ["rule_scraping"],
      values: { rule_scraping: { requests_per_minute: 60, review_hosting: true } },
    },
    {
      template: "template_disposable_email_throttle" as const,
      on: ["rule_email"],
      values: { rule_email: { disposable_signups_per_hour: 3 } },
    },
    {
      template: "template_refund_abuser_flag" as const,
      on: ["rule_farming"],
      values: { rule_farming: { accounts: false, refunds: true } },
    },
  ])("$template turns on $on with its values", ({ template, on, values }) => {
    const result = effectiveRules(DEFAULT_RULES, { ...DEFAULT_TEMPLATES, [template]: true }, {});
    for (const key of on) {
      expect(result.enabled[key as keyof typeof result.enabled]).toBe(true);
      expect(result.drivenBy[key as keyof typeof result.drivenBy]).toEqual([template]);
    }
    expect(result.settings).toMatchObject(values);
  });

  it("the merchant's own values win over a template's", () => {
    const result = effectiveRules(
      DEFAULT_RULES,
      { ...DEFAULT_TEMPLATES, template_stealth_scraper_deterrent: true },
      { rule_scraping: { requests_per_minute: 200 } },
    );
    expect(result.settings.rule_scraping).toMatchObject({
      requests_per_minute: 200,
      review_hosting: true,
    });
  });

  it("a check one template turns on stays on when another turns it off (Refund Abuser Flag and Account Farm Shield)", () => {
    const both = effectiveRules(
      DEFAULT_RULES,
      {
        ...DEFAULT_TEMPLATES,
        template_account_farm_shield: true,
        template_refund_abuser_flag: true,
      },
      {},
    );
    expect(both.settings.rule_farming).toMatchObject({ accounts: true, refunds: true });
    const own = effectiveRules(
      DEFAULT_RULES,
      { ...DEFAULT_TEMPLATES, template_account_farm_shield: true },
      { rule_farming: { accounts: false } },
    );
    expect(own.settings.rule_farming.accounts).toBe(false);
  });

  it("a rule's own flag turns it on without any template", () => {
    const result = effectiveRules({ ...DEFAULT_RULES, rule_entropy: true }, DEFAULT_TEMPLATES, {});
    expect(result.enabled.rule_entropy).toBe(true);
    expect(result.drivenBy.rule_entropy).toEqual([]);
  });
});
