import { describe, expect, it } from "vitest";
import { fieldName } from "./field-names.ts";

describe("the name a person reads for a configuration key", () => {
  it.each([
    ["rule_ip", "One trial per device/IP/email"],
    ["rule_high_risk", "Too high risk level with threshold"],
    ["template_one_human_one_trial", "One Human One Trial"],
    ["risk_level_threshold", "Risk level threshold"],
    ["require_two_factor", "Require two-factor sign-in"],
    ["screenings", "Keep Screenings (days)"],
    ["action", "Action"],
    ["trial_start", "Trial start"],
  ])("%s → %s", (key, name) => {
    expect(fieldName(key)).toBe(name);
  });
});
