/**
 * Why a role may not do something, in one short line the console shows beside the control it
 * turns off ("Your role (Viewer) cannot review and label."), from the one matrix the server
 * checks (shared/team/roles.ts).
 */
import { can, type Permission, ROLE_LABELS, type Role } from "../../../shared/team/roles.ts";

/** What each permission lets a member do, as the end of "you can see this, but not …". */
export const PERMISSION_VERBS: Record<Permission, string> = {
  read: "read",
  review: "review and label",
  configure: "change the configuration",
  team: "manage the team",
  own: "change this as an owner does",
};

/** The reason `role` may not use a control needing `need`; null when it may (or no one is signed in). */
export function roleReason(role: Role | null | undefined, need: Permission): string | null {
  if (!role || can(role, need)) return null;
  return `Your role (${ROLE_LABELS[role]}) cannot ${PERMISSION_VERBS[need]}.`;
}
