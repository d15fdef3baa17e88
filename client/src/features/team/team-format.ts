/**
 * What the Team page offers the signed-in member, from their role (shared/team/roles.ts): the
 * roles they may give, whom they may remove, whether they may leave. The server decides
 * (server/modules/team/team.rules.ts); these only hide controls that would be refused.
 */
import { MESSAGES } from "../../../../shared/messages.ts";
import { can, ROLE_LABELS, ROLES, type Role } from "../../../../shared/team/roles.ts";

const BELOW_OWNER = ROLES.filter((role) => role !== "owner");

/** The roles an actor may invite as: below owner for a team manager, any for an owner. */
export function invitableRoles(actor: Role): Role[] {
  if (!can(actor, "team")) return [];
  return actor === "owner" ? [...ROLES] : BELOW_OWNER;
}

/**
 * The roles an actor may give a member (their current one among them), or none when the
 * member's role is not the actor's to change; the last owner's role is nobody's to change.
 */
export function assignableRoles(actor: Role, target: Role, owners: number): Role[] {
  if (!can(actor, "team")) return [];
  if (target === "owner" && owners <= 1) return [];
  if (actor === "owner") return [...ROLES];
  return target === "owner" ? [] : BELOW_OWNER;
}

/** Whether an actor may remove a member (never the last owner). */
export function mayRemove(actor: Role, target: Role, owners: number): boolean {
  if (!can(actor, "team")) return false;
  if (target === "owner") return actor === "owner" && owners > 1;
  return true;
}

/** Why a member cannot leave, or null when they may. */
export function leaveBlocked(role: Role, owners: number): string | null {
  return role === "owner" && owners <= 1 ? MESSAGES.lastOwner : null;
}

/** "an Admin", "a Viewer". */
export function withArticle(role: Role): string {
  const label = ROLE_LABELS[role];
  return `${/^[AEIOU]/.test(label) ? "an" : "a"} ${label}`;
}

/** A date as the Team page shows it: 26 Nov 2026. */
export function shortDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
}
