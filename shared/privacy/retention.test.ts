import { describe, expect, it } from "vitest";
import { DAY } from "../../server/engine/counting.ts";
import { allCounts } from "../../server/engine/rule-counts.ts";
import { ZRetentionSettings } from "../schemas/retention.ts";
import { DEFAULT_RULE_SETTINGS, mergeRuleSettings } from "../schemas/rule-settings.ts";
import {
  LONGEST_RULE_WINDOW_DAYS,
  RETENTION,
  RETENTION_KINDS,
  type RetentionKind,
  retentionBreaks,
  ruleWindows,
} from "./retention.ts";

const defaults = ruleWindows(DEFAULT_RULE_SETTINGS);

describe("retentionBreaks", () => {
  const cases: [string, RetentionKind, number, string[]][] = [
    ["identities at the default break nothing", "identities", 400, []],
    [
      "identities under a year weaken one trial per email, card or device",
      "identities",
      364,
      [
        "rule_promo_abuse looks back 400 days: a promo code redeemed by the same email, device or card more than 364 days ago will not count, and a referrer seen only before then looks new.",
        "rule_ip looks back 365 days: a trial started with the same email, card or device more than 364 days ago will not count.",
      ],
    ],
    [
      "identities of a week weaken every window longer than a week",
      "identities",
      7,
      [
        "rule_ip looks back 365 days: a trial started with the same email, card or device more than 7 days ago will not count.",
        "rule_farming looks back 30 days: accounts signed up on one device or card more than 7 days ago will not count.",
        "rule_cc_reuse looks back 30 days: users who used the same card more than 7 days ago will not count.",
        "rule_device_fingerprint_reuse looks back 30 days: users on the same device more than 7 days ago will not count.",
        "rule_promo_abuse looks back 400 days: a promo code redeemed by the same email, device or card more than 7 days ago will not count, and a referrer seen only before then looks new.",
        "rule_farming looks back 30 days: accounts linked by a shared device, card, email or network more than 7 days ago will not count.",
      ],
    ],
    ["charges at the dispute window break nothing", "charges_personal", 540, []],
    [
      "charges a day short of the dispute window",
      "charges_personal",
      539,
      [
        "A dispute can arrive up to 540 days after a charge: one older than 539 days will no longer show the charge's email or card.",
      ],
    ],
    [
      "charges under the refund window weaken rule_farming's refund history",
      "charges_personal",
      90,
      [
        "rule_farming looks back 180 days: refunds and disputes on charges older than 90 days will no longer be found by the email or card.",
        "A dispute can arrive up to 540 days after a charge: one older than 90 days will no longer show the charge's email or card.",
      ],
    ],
    ["screenings of a day break no rule", "screenings", 1, []],
    ["collector tokens of a day break no rule", "collector_tokens", 1, []],
    ["webhook deliveries of a day break no rule", "webhook_deliveries", 1, []],
    ["the audit log at its minimum breaks no rule", "audit_log", 30, []],
  ];
  it.each(cases)("%s", (_name, kind, days, expected) => {
    expect(retentionBreaks(kind, days, defaults).sort()).toEqual([...expected].sort());
  });

  it("follows the merchant's rule settings: a two-year trial window outgrows the default", () => {
    const windows = ruleWindows(mergeRuleSettings({ rule_ip: { window_days: 730 } }));
    expect(retentionBreaks("identities", RETENTION.identities.default_days, windows)).toEqual([
      "rule_ip looks back 730 days: a trial started with the same email, card or device more than 400 days ago will not count.",
    ]);
  });
});

describe("the rule windows", () => {
  it("name every window of a day or more the engine counts over, under any settings", () => {
    const settings = mergeRuleSettings({
      rule_ip: { window_days: 101 },
      rule_farming: { window_days: 102 },
      rule_cc_reuse: { window_days: 103 },
      rule_device_fingerprint_reuse: { window_days: 104 },
    });
    const known = new Set(
      ruleWindows(settings)
        .filter((w) => w.kind === "identities")
        .map((w) => w.days),
    );
    const counted = allCounts()
      .map((decl) => decl.window(settings) / DAY)
      .filter((days) => days >= 1);
    expect(counted.length).toBeGreaterThan(0);
    for (const days of counted) expect(known, `a ${days}-day window`).toContain(days);
  });

  it("keep the identities' default at the longest of them under the default settings", () => {
    const longest = Math.max(...defaults.filter((w) => w.kind === "identities").map((w) => w.days));
    expect(longest).toBe(LONGEST_RULE_WINDOW_DAYS);
    expect(RETENTION.identities.default_days).toBe(longest);
  });
});

describe("ZRetentionSettings", () => {
  const cases: [string, unknown, string | null][] = [
    ["any subset", { screenings: 30 }, null],
    ["null: back to the default", { identities: null, audit_log: null }, null],
    ["nothing", {}, null],
    ["below a day", { screenings: 0 }, "screenings"],
    ["past ten years", { charges_personal: 3651 }, "charges_personal"],
    ["the audit log under its own minimum", { audit_log: 29 }, "audit_log"],
    ["a fraction", { collector_tokens: 1.5 }, "collector_tokens"],
    ["a string", { webhook_deliveries: "30" }, "webhook_deliveries"],
    ["an unknown kind", { labels: 30 }, ""],
  ];
  it.each(cases)("%s", (_name, input, field) => {
    const parsed = ZRetentionSettings.safeParse(input);
    if (field === null) return expect(parsed.success).toBe(true);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path.join(".")).toBe(field);
  });

  it("shows every kind once, each with a reason for its default", () => {
    expect(Object.keys(RETENTION).sort()).toEqual([...RETENTION_KINDS].sort());
    for (const kind of RETENTION_KINDS) {
      const info = RETENTION[kind];
      expect(info.why.length).toBeGreaterThan(20);
      expect(info.default_days).toBeGreaterThanOrEqual(info.min);
      expect(info.default_days).toBeLessThanOrEqual(info.max);
    }
  });
});
