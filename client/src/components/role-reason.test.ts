import { describe, expect, it } from "vitest";
import { ROLES } from "../../../shared/team/roles.ts";
import { roleReason } from "./role-reason.ts";

describe("roleReason", () => {
  it.each([
    ["owner", "own", null],
    ["admin", "configure", null],
    ["admin", "own", "Your role (Admin) cannot change this as an owner does."],
    ["analyst", "review", null],
    ["analyst", "configure", "Your role (Analyst) cannot change the configuration."],
    ["analyst", "team", "Your role (Analyst) cannot manage the team."],
    ["viewer", "read", null],
    ["viewer", "review", "Your role (Viewer) cannot review and label."],
  ] as const)("%s needing %s: %s", (role, need, reason) => {
    expect(roleReason(role, need)).toBe(reason);
  });

  it("gives no reason when no one is signed in (the page sends them to log in)", () => {
    expect(roleReason(undefined, "configure")).toBeNull();
  });

  it("gives every role a reason for exactly what the matrix denies it", () => {
    for (const role of ROLES) {
      expect(roleReason(role, "read"), role).toBeNull();
    }
    expect(ROLES.filter((role) => roleReason(role, "own") === null)).toEqual(["owner"]);
    expect(ROLES.filter((role) => roleReason(role, "review") === null)).toEqual([
      "owner",
      "admin",
      "analyst",
    ]);
  });
});
