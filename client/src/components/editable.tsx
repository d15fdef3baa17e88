/**
 * What the signed-in member's role may change: the controls inside are disabled, with a note
 * saying why, when the role lacks the permission (shared/team/roles.ts). The server refuses
 * the change anyway (403); this spares the member a form that cannot be saved.
 */
import type { ReactNode } from "react";
import { can, type Permission, ROLE_LABELS } from "../../../shared/team/roles.ts";
import { useSession } from "../lib/session.ts";
import { PERMISSION_VERBS, roleReason } from "./role-reason.ts";

export function useCan(permission: Permission): boolean {
  const { user } = useSession();
  return can(user?.role, permission);
}

/** Why the signed-in member's role may not use a control needing `permission`; null if it may. */
export function useRoleReason(permission: Permission): string | null {
  const { user } = useSession();
  return roleReason(user?.role, permission);
}

/**
 * The reason beside a control the role may not use, as a short line; give the control
 * `disabled`, `title={reason}` and `aria-describedby={id}`. Nothing when the role may.
 */
export function RoleNote({ id, reason }: { id?: string; reason: string | null }) {
  if (!reason) return null;
  return (
    <small className="role-note" id={id} data-role-note>
      {reason}
    </small>
  );
}

export function Editable({ need, children }: { need: Permission; children: ReactNode }) {
  const { user } = useSession();
  if (!user || can(user.role, need)) return <>{children}</>;
  return (
    <>
      <p className="config-note read-only-note" role="note">
        You are {/^[AEIOU]/.test(ROLE_LABELS[user.role]) ? "an" : "a"}{" "}
        {ROLE_LABELS[user.role].toLowerCase()} in this account: you can see this, but not{" "}
        {PERMISSION_VERBS[need]}.
      </p>
      <fieldset className="read-only" disabled>
        {children}
      </fieldset>
    </>
  );
}
