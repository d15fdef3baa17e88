import { describe, expect, it } from "vitest";
import type { AccountConfig, AccountConfigImport } from "./account-config.ts";
import { describeChanges, importWarnings, MUST_ENROL_WARNING } from "./import-preview.ts";
import { DEFAULT_RULES } from "./rules.ts";
import { DEFAULT_TEMPLATES } from "./templates.ts";

const CURRENT: AccountConfig = {
  warden_config: 1,
  exported_at: "2026-11-29T10:00:00.000Z",
  rules: DEFAULT_RULES,
  templates: DEFAULT_TEMPLATES,
  rule_settings: {},
  score_thresholds: {},
  blocklist: { countries: [], email_providers: [] },
  allow_list: [],
  allowed_origins: [],
  settings: { app_name: "Shop", contact_email: "ops@shop.example", stripe_publishable: "" },
  webhook_endpoints: [],
  security: { require_two_factor: false, audit_retention_days: 365 },
  retention: {
    screenings: null,
    collector_tokens: null,
    identities: null,
    webhook_deliveries: null,
    charges_personal: 30,
  },
};

const file = (sections: Partial<AccountConfigImport>) =>
  ({ warden_config: 1, ...sections }) as AccountConfigImport;

describe("an import's changes in the console's words", () => {
  it.each([
    [
      "a rule's switch and the threshold",
      file({ rules: { ...DEFAULT_RULES, rule_high_risk: true, risk_level_threshold: 61 } }),
      "rules",
      ["Too high risk level with threshold: off → on", "Risk level threshold: 70 → 61"],
    ],
    [
      "a template",
      file({ templates: { ...DEFAULT_TEMPLATES, template_one_human_one_trial: true } }),
      "templates",
      ["One Human One Trial: off → on"],
    ],
    [
      "a rule's setting, under the rule's name",
      file({ rule_settings: { rule_high_risk: { action: "review" } } }),
      "rule_settings",
      ["Too high risk level with threshold · Action: none → review"],
    ],
    [
      "an event type's thresholds",
      file({ score_thresholds: { signup: { review: 40, block: 80 } } }),
      "score_thresholds",
      ["Signup · Review at: none → 40", "Signup · Block at: none → 80"],
    ],
    [
      "two-factor sign-in and the audit log's retention",
      file({ security: { require_two_factor: true, audit_retention_days: 90 } }),
      "security",
      ["Require two-factor sign-in: off → on", "Keep audit log events (days): 365 → 90"],
    ],
    [
      "retention, the default named as such",
      file({ retention: { screenings: 30, charges_personal: null } }),
      "retention",
      [
        "Keep Screenings (days): default → 30",
        "Keep Charges' personal fields (days): 30 → default",
      ],
    ],
    ["a section the file leaves out", file({}), "rules", []],
  ] as const)("%s", (_what, incoming, section, lines) => {
    expect(describeChanges(CURRENT, incoming)[section]).toEqual(lines);
  });
});

describe("what to read before importing", () => {
  const alone = { twoFactor: false, othersWithoutTwoFactor: 0 };
  it.each([
    [
      "requiring two-factor of an importer without it",
      file({ security: { require_two_factor: true, audit_retention_days: 365 } }),
      alone,
      [MUST_ENROL_WARNING],
    ],
    [
      "requiring it of an importer who has it, with two members who have not",
      file({ security: { require_two_factor: true, audit_retention_days: 365 } }),
      { twoFactor: true, othersWithoutTwoFactor: 2 },
      [
        "2 other members have no two-factor sign-in yet and will have to set it up before using this account again.",
      ],
    ],
    [
      "an audit log kept for less time",
      file({ security: { require_two_factor: false, audit_retention_days: 30 } }),
      alone,
      ["Audit log events older than 30 days will be deleted."],
    ],
    [
      "retention shorter than the default, longer than it, and back to it",
      file({ retention: { screenings: 7, identities: 400, charges_personal: null } }),
      alone,
      ["Screenings older than 7 days will be deleted."],
    ],
    [
      "two new webhook endpoints",
      file({
        webhook_endpoints: [
          { url: "https://a.example/hook", events: ["label.created"] },
          { url: "https://b.example/hook", events: ["label.created"] },
        ],
      }),
      alone,
      [
        "2 new webhook endpoints will start receiving events; their signing secrets are shown once, right after importing.",
      ],
    ],
    ["rules alone", file({ rules: { ...DEFAULT_RULES, rule_ip: true } }), alone, []],
  ] as const)("%s", (_what, incoming, importer, warnings) => {
    expect(importWarnings(CURRENT, incoming, importer)).toEqual(warnings);
  });
});
