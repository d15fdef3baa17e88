/**
 * Who may change whose place in a team, as one pure function: the service reads the roles and
 * the number of owners under the account's row lock, asks here, and acts only on `null`.
 * An admin manages admins, analysts and viewers; only an owner touches an owner or makes one;
 * nobody, owner or not, leaves the account without an owner.
 */
import { MESSAGES } from "../../../shared/messages.ts";
import { can, ROLES, type Role } from "../../../shared/team/roles.ts";

/** A new role for a member, their removal by someone else, or their leaving. */
export type TeamChange = { kind: "role"; role: Role } | { kind: "remove" } | { kind: "leave" };

export type Refusal = { code: "FORBIDDEN" | "CONFLICT"; message: string };

export function refuseChange(input: {
  /** The acting member's role (for `leave`, the member's own). */
  actor: Role;
  /** The role of the member changed, removed or leaving. */
  target: Role;
  /** Whether the actor is the member changed. */
  self: boolean;
  change: TeamChange;
  /** Owners in the account now. */
  owners: number;
}): Refusal | null {
  const { actor, target, self, change, owners } = input;
  if (change.kind !== "leave") {
    if (!can(actor, "team")) return { code: "FORBIDDEN", message: MESSAGES.forbiddenForRole };
    if (target === "owner" && actor !== "owner") {
      return { code: "FORBIDDEN", message: MESSAGES.onlyOwnerChangesOwner };
    }
    if (change.kind === "role" && change.role === "owner" && actor !== "owner") {
      return { code: "FORBIDDEN", message: MESSAGES.onlyOwnerMakesOwner };
    }
  }
  const losesOwner = target === "owner" && !(change.kind === "role" && change.role === "owner");
  if (losesOwner && owners <= 1) {
    return { code: "CONFLICT", message: self ? MESSAGES.lastOwner : MESSAGES.lastOwnerOther };
  }
  return null;
}

/** An invitation's role: anything below owner for a team manager, owner only from an owner. */
export function refuseInvite(inviter: Role, role: Role): Refusal | null {
  if (!can(inviter, "team")) return { code: "FORBIDDEN", message: MESSAGES.forbiddenForRole };
  if (role === "owner" && inviter !== "owner") {
    return { code: "FORBIDDEN", message: MESSAGES.onlyOwnerMakesOwner };
  }
  return null;
}

/**
 * The roles of invitations a member in `role` may have pending (none once they are out of
 * the account: `null`). A member removed, leaving or demoted keeps only these; the others are
 * revoked with the change, so an invitation never outlives its inviter's right to send it.
 */
export function invitesKept(role: Role | null): Role[] {
  return role ? ROLES.filter((invited) => refuseInvite(role, invited) === null) : [];
}

/** Ownership goes from an owner to another member who is not an owner yet. */
export function refuseTransfer(input: {
  actor: Role;
  target: Role;
  self: boolean;
}): Refusal | null {
  if (input.actor !== "owner") return { code: "FORBIDDEN", message: MESSAGES.forbiddenForRole };
  if (input.self) return { code: "CONFLICT", message: MESSAGES.transferToSelf };
  if (input.target === "owner") return { code: "CONFLICT", message: MESSAGES.transferToOwner };
  return null;
}
