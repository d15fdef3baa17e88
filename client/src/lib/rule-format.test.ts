import { describe, expect, it } from "vitest";
import { changeName, weightsName } from "./rule-format.ts";

describe("a changed key as a person reads it", () => {
  it.each([
    ["rule_efw", "Early Fraud Warning Detection"],
    ["template_one_human_one_trial", "One Human One Trial"],
    ["rule_high_risk.action", "Too high risk level with threshold · Action"],
    ["signup.review", "Signup · Review at"],
    ["audit_retention_days", "Keep audit log events (days)"],
  ])("%s → %s", (path, name) => {
    expect(changeName(path)).toBe(name);
  });
});

describe("a score model's version as a person reads it", () => {
  it.each([
    ["default-2", "Warden's default weights, version 2"],
    ["default-12", "Warden's default weights, version 12"],
    ["acct-3", "your weights, version 3"],
    ["custom", "custom"],
  ])("%s → %s", (version, name) => {
    expect(weightsName(version)).toBe(name);
  });
});
