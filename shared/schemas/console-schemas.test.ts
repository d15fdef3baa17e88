import { describe, expect, it } from "vitest";
import { COUNTRIES, isCountryCode } from "../catalog/countries.ts";
import { EMAIL_PROVIDER_PRESETS } from "../catalog/email-providers.ts";
import { RULE_CATALOG } from "../catalog/rules.ts";
import { TEMPLATE_CATALOG } from "../catalog/templates.ts";
import { ZBlocklist, ZProviderDomain } from "./blocklist.ts";
import { clampThreshold, DEFAULT_RULES, RULE_KEYS, rulesFromStored, ZRules } from "./rules.ts";
import { isSecretHint, secretHint, ZSettingsInput } from "./settings.ts";
import { DEFAULT_TEMPLATES, TEMPLATE_KEYS, templatesFromStored, ZTemplates } from "./templates.ts";

describe("catalogues", () => {
  it("lists every rule key once: four standard rules, eleven advanced ones", () => {
    expect(RULE_CATALOG.map((rule) => rule.key).sort()).toEqual([...RULE_KEYS].sort());
    expect(RULE_CATALOG.filter((r) => r.group === "standard").map((r) => r.key)).toEqual([
      "rule_email",
      "rule_efw",
      "rule_high_risk",
      "rule_country_blocked",
    ]);
    expect(RULE_CATALOG.filter((r) => r.group === "advanced")).toHaveLength(11);
  });

  it("lists the six templates of the spec", () => {
    expect(TEMPLATE_CATALOG.map((t) => t.key)).toEqual([...TEMPLATE_KEYS]);
    expect(TEMPLATE_CATALOG.map((t) => t.label)).toContain("One Human One Trial");
  });

  it("has every ISO 3166-1 country with its English name, and the seven provider presets", () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(249);
    expect(COUNTRIES).toContainEqual({ code: "FR", name: "France" });
    expect(COUNTRIES).toContainEqual({ code: "US", name: "United States of America" });
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(COUNTRIES.length);
    expect(EMAIL_PROVIDER_PRESETS).toHaveLength(7);
    for (const preset of EMAIL_PROVIDER_PRESETS) expect(ZProviderDomain.parse(preset)).toBe(preset);
  });

  it.each([
    ["US", true],
    ["GB", true],
    ["us", false],
    ["UK", false],
    ["XX", false],
    ["USA", false],
  ])("isCountryCode(%s) is %s", (code, expected) => {
    expect(isCountryCode(code)).toBe(expected);
  });
});

describe("rules", () => {
  it.each([
    [0, true],
    [70, true],
    [100, true],
    [-1, false],
    [101, false],
    [12.5, false],
    ["70", false],
    [null, false],
  ])("risk_level_threshold %j valid: %s", (threshold, valid) => {
    expect(ZRules.safeParse({ ...DEFAULT_RULES, risk_level_threshold: threshold }).success).toBe(
      valid,
    );
  });

  it("refuses unknown and missing keys", () => {
    expect(ZRules.safeParse({ ...DEFAULT_RULES, rule_new: true }).success).toBe(false);
    const { rule_efw: _missing, ...partial } = DEFAULT_RULES;
    expect(ZRules.safeParse(partial).success).toBe(false);
  });

  it.each([
    ["150", 100],
    ["-5", 0],
    ["42", 42],
    ["42.6", 43],
    ["", null],
    ["abc", null],
    [250, 100],
  ])("clampThreshold(%j) is %j", (raw, expected) => {
    expect(clampThreshold(raw)).toBe(expected);
  });

  it.each([
    [undefined, DEFAULT_RULES],
    [[], DEFAULT_RULES],
    [{ risk_level_threshold: "abc" }, DEFAULT_RULES],
    [{ risk_level_threshold: null }, DEFAULT_RULES],
    [{ risk_level_threshold: "55" }, { ...DEFAULT_RULES, risk_level_threshold: 55 }],
    [
      { rule_efw: true, rule_ip: "yes", stray: 1 },
      { ...DEFAULT_RULES, rule_efw: true },
    ],
  ])("rulesFromStored(%j) merges over the defaults", (stored, expected) => {
    expect(rulesFromStored(stored)).toEqual(expected);
  });
});

describe("templates", () => {
  it("defaults every template to false and merges stored flags", () => {
    expect(Object.values(DEFAULT_TEMPLATES)).toEqual(Array(6).fill(false));
    expect(templatesFromStored({ template_refund_abuser_flag: true, other: true })).toEqual({
      ...DEFAULT_TEMPLATES,
      template_refund_abuser_flag: true,
    });
    expect(ZTemplates.safeParse({ ...DEFAULT_TEMPLATES, template_x: true }).success).toBe(false);
  });
});

describe("blocklist", () => {
  it.each([
    ["gmail.com", true],
    ["mail.example.co.uk", true],
    ["xn--bcher-kva.example", true],
    ["a-b.io", true],
    ["Gmail.com", false],
    ["localhost", false],
    ["-bad.com", false],
    ["bad-.com", false],
    ["under_score.com", false],
    [" gmail.com", false],
    ["a..com", false],
    [`${"a".repeat(64)}.com`, false],
    [`${`${"a".repeat(60)}.`.repeat(4)}com`, true],
    [`${`${"a".repeat(62)}.`.repeat(4)}com`, false],
  ])("provider %j valid: %s", (domain, valid) => {
    expect(ZProviderDomain.safeParse(domain).success).toBe(valid);
  });

  it("drops duplicates and caps providers at 1000", () => {
    expect(
      ZBlocklist.parse({ countries: ["FR", "FR"], email_providers: ["a.com", "a.com"] }),
    ).toEqual({ countries: ["FR"], email_providers: ["a.com"] });
    const many = (n: number) => Array.from({ length: n }, (_, i) => `p${i}.com`);
    expect(ZBlocklist.safeParse({ countries: [], email_providers: many(1000) }).success).toBe(true);
    expect(ZBlocklist.safeParse({ countries: [], email_providers: many(1001) }).success).toBe(
      false,
    );
  });
});

describe("settings", () => {
  const blank = { app_name: "", contact_email: "", stripe_secret: "", stripe_publishable: "" };

  it.each([
    ["stripe_secret", "sk_test_51abcdefgh", true],
    ["stripe_secret", "sk_live_51abcdefgh", true],
    ["stripe_secret", "rk_test_51abcdefgh", true],
    ["stripe_secret", "rk_live_51abcdefgh", true],
    ["stripe_secret", "sk_test_…4242", true],
    ["stripe_secret", "pk_test_51abcdefgh", false],
    ["stripe_secret", "sk_51abcdefgh", false],
    ["stripe_secret", "sk_test_", false],
    ["stripe_publishable", "pk_test_51abcdefgh", true],
    ["stripe_publishable", "pk_live_51abcdefgh", true],
    ["stripe_publishable", "sk_live_51abcdefgh", false],
    ["stripe_webhook_secret", "whsec_abcdefgh1234", true],
    ["stripe_webhook_secret", "abcdefgh1234", false],
    ["contact_email", "ops@example.com", true],
    ["contact_email", "ops@", false],
    ["app_name", "A".repeat(100), true],
    ["app_name", "A".repeat(101), false],
  ])("%s = %j valid: %s", (field, value, valid) => {
    expect(ZSettingsInput.safeParse({ ...blank, [field]: value }).success).toBe(valid);
  });

  it("allows every optional field blank and treats an echoed hint as blank", () => {
    expect(ZSettingsInput.parse(blank)).toEqual({ ...blank, stripe_webhook_secret: "" });
    expect(ZSettingsInput.parse({ ...blank, stripe_secret: "sk_test_…4242" }).stripe_secret).toBe(
      "",
    );
  });

  it.each([
    ["sk_test_51abcdef4242", "sk_test_…4242"],
    ["rk_live_51abcdef7777", "rk_live_…7777"],
    ["whsec_abcdefgh9876", "whsec_…9876"],
  ])("hints %s as %s", (secret, hint) => {
    expect(secretHint(secret)).toBe(hint);
    expect(isSecretHint(secretHint(secret))).toBe(true);
  });
});
