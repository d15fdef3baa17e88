/** The team's rules as a table: who may change, remove, invite and hand over what. */
import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../../shared/messages.ts";
import type { Role } from "../../../shared/team/roles.ts";
import {
  invitesKept,
  refuseChange,
  refuseInvite,
  refuseTransfer,
  type TeamChange,
} from "./team.rules.ts";

const role = (r: Role): TeamChange => ({ kind: "role", role: r });
const remove: TeamChange = { kind: "remove" };
const leave: TeamChange = { kind: "leave" };
const forbidden = (message: string) => ({ code: "FORBIDDEN", message });
const conflict = (message: string) => ({ code: "CONFLICT", message });

describe("refuseChange", () => {
  const cases: [string, Parameters<typeof refuseChange>[0], unknown][] = [
    [
      "an admin makes an analyst a viewer",
      { actor: "admin", target: "analyst", self: false, change: role("viewer"), owners: 1 },
      null,
    ],
    [
      "an admin makes a viewer an admin",
      { actor: "admin", target: "viewer", self: false, change: role("admin"), owners: 1 },
      null,
    ],
    [
      "an admin removes another admin",
      { actor: "admin", target: "admin", self: false, change: remove, owners: 1 },
      null,
    ],
    [
      "an admin may not demote an owner",
      { actor: "admin", target: "owner", self: false, change: role("admin"), owners: 2 },
      forbidden(MESSAGES.onlyOwnerChangesOwner),
    ],
    [
      "an admin may not remove an owner",
      { actor: "admin", target: "owner", self: false, change: remove, owners: 2 },
      forbidden(MESSAGES.onlyOwnerChangesOwner),
    ],
    [
      "an admin may not make anyone an owner",
      { actor: "admin", target: "analyst", self: false, change: role("owner"), owners: 1 },
      forbidden(MESSAGES.onlyOwnerMakesOwner),
    ],
    [
      "an analyst may not change roles",
      { actor: "analyst", target: "viewer", self: false, change: role("analyst"), owners: 1 },
      forbidden(MESSAGES.forbiddenForRole),
    ],
    [
      "a viewer may not remove anyone",
      { actor: "viewer", target: "viewer", self: false, change: remove, owners: 1 },
      forbidden(MESSAGES.forbiddenForRole),
    ],
    [
      "an owner makes an admin an owner",
      { actor: "owner", target: "admin", self: false, change: role("owner"), owners: 1 },
      null,
    ],
    [
      "an owner demotes another owner while one stays",
      { actor: "owner", target: "owner", self: false, change: role("admin"), owners: 2 },
      null,
    ],
    [
      "an owner demotes themselves while another owner stays",
      { actor: "owner", target: "owner", self: true, change: role("viewer"), owners: 2 },
      null,
    ],
    [
      "the last owner may not demote themselves",
      { actor: "owner", target: "owner", self: true, change: role("admin"), owners: 1 },
      conflict(MESSAGES.lastOwner),
    ],
    [
      "the last owner may not remove themselves",
      { actor: "owner", target: "owner", self: true, change: remove, owners: 1 },
      conflict(MESSAGES.lastOwner),
    ],
    [
      "an owner keeping the owner role is no loss",
      { actor: "owner", target: "owner", self: true, change: role("owner"), owners: 1 },
      null,
    ],
    [
      "a stale owner (demoted meanwhile) may not remove the last owner",
      { actor: "owner", target: "owner", self: false, change: remove, owners: 1 },
      conflict(MESSAGES.lastOwnerOther),
    ],
    [
      "anyone may leave",
      { actor: "viewer", target: "viewer", self: true, change: leave, owners: 1 },
      null,
    ],
    [
      "an owner may leave while another owner stays",
      { actor: "owner", target: "owner", self: true, change: leave, owners: 2 },
      null,
    ],
    [
      "the last owner may not leave",
      { actor: "owner", target: "owner", self: true, change: leave, owners: 1 },
      conflict(MESSAGES.lastOwner),
    ],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    expect(refuseChange(input)).toEqual(expected);
  });
});

describe("refuseInvite", () => {
  const cases: [Role, Role, unknown][] = [
    ["owner", "owner", null],
    ["owner", "admin", null],
    ["admin", "admin", null],
    ["admin", "analyst", null],
    ["admin", "viewer", null],
    ["admin", "owner", forbidden(MESSAGES.onlyOwnerMakesOwner)],
    ["analyst", "viewer", forbidden(MESSAGES.forbiddenForRole)],
    ["viewer", "viewer", forbidden(MESSAGES.forbiddenForRole)],
  ];
  it.each(cases)("%s invites as %s", (inviter, invited, expected) => {
    expect(refuseInvite(inviter, invited)).toEqual(expected);
  });
});

describe("invitesKept", () => {
  const cases: [Role | null, Role[]][] = [
    ["owner", ["owner", "admin", "analyst", "viewer"]],
    // An owner handing ownership over becomes an admin: their owner invitations go.
    ["admin", ["admin", "analyst", "viewer"]],
    ["analyst", []],
    ["viewer", []],
    // Removed or left.
    [null, []],
  ];
  it.each(cases)("a member now %s keeps invitations as %j", (role, kept) => {
    expect(invitesKept(role)).toEqual(kept);
  });
});

describe("refuseTransfer", () => {
  const cases: [string, Parameters<typeof refuseTransfer>[0], unknown][] = [
    ["an owner to an admin", { actor: "owner", target: "admin", self: false }, null],
    ["an owner to a viewer", { actor: "owner", target: "viewer", self: false }, null],
    [
      "an admin may not",
      { actor: "admin", target: "viewer", self: false },
      forbidden(MESSAGES.forbiddenForRole),
    ],
    [
      "not to oneself",
      { actor: "owner", target: "owner", self: true },
      conflict(MESSAGES.transferToSelf),
    ],
    [
      "not to another owner",
      { actor: "owner", target: "owner", self: false },
      conflict(MESSAGES.transferToOwner),
    ],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    expect(refuseTransfer(input)).toEqual(expected);
  });
});
