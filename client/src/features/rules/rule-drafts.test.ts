import { describe, expect, it } from "vitest";
import { DEFAULT_RULE_SETTINGS } from "../../../../shared/schemas/rule-settings.ts";
import { describeChanges, withDrafts } from "./rule-drafts.ts";

describe("unsaved Settings forms in Test on history", () => {
  it("lays the typed values over what runs, converted as Save converts them", () => {
    const drafted = withDrafts(DEFAULT_RULE_SETTINGS, {
      rule_signup_velocity: { per_ip_per_hour: "1" },
      rule_ip: { window_days: "365" },
    });
    expect(drafted.ok).toBe(true);
    if (!drafted.ok) return;
    expect(drafted.settings.rule_signup_velocity).toEqual({
      ...DEFAULT_RULE_SETTINGS.rule_signup_velocity,
      per_ip_per_hour: 1,
    });
    // An edit back to the running value is no change; the input is not modified.
    expect(drafted.changed).toEqual({
      rule_signup_velocity: { per_ip_per_hour: 1 },
    });
    expect(DEFAULT_RULE_SETTINGS.rule_signup_velocity.per_ip_per_hour).toBe(5);
    expect(describeChanges(drafted.changed)).toEqual([
      "Signup velocity (Signups per IP per hour 1)",
    ]);
  });

  it.each([
    ["0", "must be at least 1"],
    ["", "must be a whole number"],
    ["1.5", "must be a whole number"],
    ["abc", "must be a whole number"],
  ])("names the field of a draft %j that the PUT would refuse", (typed, message) => {
    const drafted = withDrafts(DEFAULT_RULE_SETTINGS, {
      rule_signup_velocity: { per_ip_per_hour: "2" },
      rule_ip: { window_days: typed },
    });
    expect(drafted).toEqual({ ok: false, errors: { "rule_ip.window_days": message } });
  });

  it("runs a chosen value as it is, and names it as the form does", () => {
    const drafted = withDrafts(DEFAULT_RULE_SETTINGS, {
      rule_ip: { second_trial_on_device: "block" },
    });
    expect(drafted.ok).toBe(true);
    if (!drafted.ok) return;
    expect(drafted.settings.rule_ip.second_trial_on_device).toBe("block");
    expect(describeChanges(drafted.changed)).toEqual([
      "One trial per device/IP/email (Second account's trial on a device block)",
    ]);
  });

  it("names the choice for a device's second trial when it is neither review nor block", () => {
    expect(
      withDrafts(DEFAULT_RULE_SETTINGS, { rule_ip: { second_trial_on_device: "deny" } }),
    ).toEqual({
      ok: false,
      errors: { "rule_ip.second_trial_on_device": "must be review or block" },
    });
  });

  it("runs the settings unchanged with no drafts", () => {
    expect(withDrafts(DEFAULT_RULE_SETTINGS, {})).toEqual({
      ok: true,
      settings: DEFAULT_RULE_SETTINGS,
      changed: {},
    });
  });
});
