/** The LOAO grid: the default one is valid settings around today's, a grid file's mistakes are named. */
import { describe, expect, it } from "vitest";
import { ZRuleSettingsUpdate } from "../../../shared/schemas/rule-settings.ts";
import { CEILINGS } from "./loao.ts";
import { around, candidatesOf, DEFAULT_GRID, gridOf, KNOBS, knobsOf } from "./loao-grid.ts";

describe("around", () => {
  it.each([
    [1, [2]],
    [3, [2, 4, 6]],
    [5, [4, 6, 10]],
    [20, [10, 15, 30, 40]],
    [120, [60, 90, 180, 240]],
  ])("%i → %j", (value, values) => {
    expect(around(value)).toEqual(values);
  });
});

describe("knobsOf", () => {
  it("takes every whole-number limit, not windows, flags, lists or limits that are off", () => {
    const knobs = knobsOf({
      rule_a: { action: "block", per_hour: 5, window_days: 30, on: true },
      rule_b: { event_types: null, max_things: 20, list: [1] },
    });
    expect(knobs).toEqual([
      { rule: "rule_a", field: "per_hour", values: [4, 6, 10] },
      { rule: "rule_b", field: "max_things", values: [10, 15, 30, 40] },
    ]);
  });
});

describe("the default grid", () => {
  it("holds the limits named in the brief", () => {
    const names = KNOBS.map((k) => `${k.rule}.${k.field}`);
    for (const limit of [
      "rule_device_fingerprint_reuse.max_users_per_device",
      "rule_farming.max_accounts",
      "rule_signup_velocity.per_ip_per_hour",
      "rule_signup_velocity.per_subnet_per_hour",
      "rule_cc_reuse.max_users_per_card",
      "rule_cc_reuse.max_cards_per_hour",
      "rule_email.disposable_signups_per_hour",
      "rule_scraping.requests_per_minute",
    ])
      expect(names).toContain(limit);
    expect(names.some((name) => name.endsWith("window_days"))).toBe(false);
  });

  it("every candidate is a settings update the server's schema takes, one field changed", () => {
    for (const c of DEFAULT_GRID.candidates) {
      expect(ZRuleSettingsUpdate.safeParse(c.settings).success, c.name).toBe(true);
      expect(
        Object.values(c.settings).flatMap((fields) => Object.keys(fields as object)),
      ).toHaveLength(1);
    }
  });

  it("has one candidate per knob value, uniquely named", () => {
    const values = KNOBS.reduce((n, knob) => n + knob.values.length, 0);
    expect(DEFAULT_GRID.candidates).toHaveLength(values);
    expect(new Set(DEFAULT_GRID.candidates.map((c) => c.name)).size).toBe(values);
    expect(DEFAULT_GRID.candidates).toContainEqual({
      name: "rule_signup_velocity.per_ip_per_hour=10",
      settings: { rule_signup_velocity: { per_ip_per_hour: 10 } },
    });
  });
});

describe("gridOf (a grid file)", () => {
  it("expands knobs one value at a time, adds candidates, and keeps unknown settings for the server to judge", () => {
    const grid = gridOf({
      configuration: "rules",
      knobs: [{ rule: "rule_new", field: "limit", values: [1, 2] }],
      candidates: [{ name: "both", settings: { rule_ip: { window_days: 30 } } }],
      ceilings: { reviewed: 0.03 },
    });
    expect(grid).toEqual({
      configuration: "rules",
      candidates: [
        ...candidatesOf([{ rule: "rule_new", field: "limit", values: [1, 2] }]),
        { name: "both", settings: { rule_ip: { window_days: 30 } } },
      ],
      ceilings: { ...CEILINGS, reviewed: 0.03 },
    });
  });

  it.each([
    ["an unknown key", { candidate: [] }, /Unrecognized key.*candidate/],
    ["nothing to play", { configuration: "all" }, /no knobs or candidates/],
    [
      "settings not by rule",
      { candidates: [{ name: "x", settings: { rule_ip: 3 } }] },
      /candidates\.0\.settings\.rule_ip/,
    ],
    [
      "a knob without values",
      { knobs: [{ rule: "r", field: "f", values: [] }] },
      /at least one value/,
    ],
    [
      "a repeated name",
      {
        candidates: [
          { name: "x", settings: {} },
          { name: "x", settings: {} },
        ],
      },
      /unique.*: x/,
    ],
    ["the defaults' name", { candidates: [{ name: "defaults", settings: {} }] }, /: defaults/],
  ])("%s is an error naming it", (_name, file, message) => {
    expect(() => gridOf(file)).toThrow(message);
  });
});
