/** What the Team page offers each role, as tables. */
import { describe, expect, it } from "vitest";
import type { Role } from "../../../../shared/team/roles.ts";
import {
  assignableRoles,
  invitableRoles,
  leaveBlocked,
  mayRemove,
  shortDate,
  withArticle,
} from "./team-format.ts";

const ALL: Role[] = ["owner", "admin", "analyst", "viewer"];
const BELOW: Role[] = ["admin", "analyst", "viewer"];

describe("invitableRoles", () => {
  it.each<[Role, Role[]]>([
    ["owner", ALL],
    ["admin", BELOW],
    ["analyst", []],
    ["viewer", []],
  ])("%s may invite as %j", (actor, roles) => {
    expect(invitableRoles(actor)).toEqual(roles);
  });
});

describe("assignableRoles", () => {
  it.each<[Role, Role, number, Role[]]>([
    ["owner", "viewer", 1, ALL],
    ["owner", "owner", 2, ALL],
    ["owner", "owner", 1, []],
    ["admin", "analyst", 1, BELOW],
    ["admin", "admin", 1, BELOW],
    ["admin", "owner", 2, []],
    ["analyst", "viewer", 1, []],
    ["viewer", "viewer", 1, []],
  ])("%s changing a %s (%i owners): %j", (actor, target, owners, roles) => {
    expect(assignableRoles(actor, target, owners)).toEqual(roles);
  });
});

describe("mayRemove", () => {
  it.each<[Role, Role, number, boolean]>([
    ["owner", "admin", 1, true],
    ["owner", "owner", 2, true],
    ["owner", "owner", 1, false],
    ["admin", "viewer", 1, true],
    ["admin", "owner", 2, false],
    ["analyst", "viewer", 1, false],
  ])("%s removing a %s (%i owners): %s", (actor, target, owners, allowed) => {
    expect(mayRemove(actor, target, owners)).toBe(allowed);
  });
});

describe("leaveBlocked", () => {
  it.each<[Role, number, string | null]>([
    ["owner", 1, "You are the last owner: transfer ownership first."],
    ["owner", 2, null],
    ["viewer", 1, null],
  ])("%s with %i owners", (role, owners, reason) => {
    expect(leaveBlocked(role, owners)).toBe(reason);
  });
});

describe("words", () => {
  it.each<[Role, string]>([
    ["admin", "an Admin"],
    ["analyst", "an Analyst"],
    ["owner", "an Owner"],
    ["viewer", "a Viewer"],
  ])("%s", (role, text) => {
    expect(withArticle(role)).toBe(text);
  });
  it("shows a day in UTC", () => {
    expect(shortDate("2026-11-26T23:30:00Z")).toBe("26 Nov 2026");
  });
});
