/**
 * What the signed-in member's role may change: the controls inside are disabled, with a note
 * saying why, when the role lacks the permission (shared/team/roles.ts). The server refuses
 * the change anyway (403); this spares the member a form that cannot be saved.
 */
import type { ReactNode } from "react";
import { can, type Permission, ROLE_LABELS } from "../../../shared/team/roles.ts";
import { useSession } from "../lib/session.ts";

const WHAT: Record<Permission, string> = {
  read: "read",
  review: "review and label",
  configure: "change the configuration",
  team: "manage the team",
  own: "change this as an owner does",
};

export function useCan(permission: Permission): boolean {
  const { user } = useSession();
  return can(user?.role, permission);
}

export function Editable({ need, children }: { need: Permission; children: ReactNode }) {
  const { user } = useSession();
  if (!user || can(user.role, need)) return <>{children}</>;
  return (
    <>
      <p className="config-note read-only-note" role="note">
        You are {/^[AEIOU]/.test(ROLE_LABELS[user.role]) ? "an" : "a"}{" "}
        {ROLE_LABELS[user.role].toLowerCase()} in this account: you can see this, but not{" "}
        {WHAT[need]}.
      </p>
      <fieldset className="read-only" disabled>
        {children}
      </fieldset>
    </>
  );
}
