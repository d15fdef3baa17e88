/**
 * The account's members: email (yours marked), role (a select where the signed-in member may
 * change it), two-factor on or off, when they joined, and Remove after a confirmation. The
 * server refuses what a role may not do; this table only offers what it would accept.
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { MemberView } from "../../../../shared/schemas/team.ts";
import { ROLE_LABELS, type Role } from "../../../../shared/team/roles.ts";
import { ErrorMessage } from "../../components/error-message.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { assignableRoles, mayRemove, shortDate } from "./team-format.ts";

type Props = {
  members: MemberView[];
  /** The signed-in member's role here. */
  role: Role;
  /** After a change: re-reads the team (and the session, whose role may have changed). */
  onChanged: () => Promise<unknown>;
};

export function MembersSection({ members, role, onChanged }: Props) {
  const trpc = useTRPC();
  const owners = members.filter((member) => member.role === "owner").length;
  const [confirming, setConfirming] = useState<string | null>(null);
  const changeRole = useMutation(trpc.team.changeRole.mutationOptions({ onSettled: onChanged }));
  const remove = useMutation(
    trpc.team.remove.mutationOptions({
      onSuccess: () => setConfirming(null),
      onSettled: onChanged,
    }),
  );
  const error = changeRole.error ?? remove.error;

  return (
    <section className="panel tm-panel" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <div className="tm-scroll">
        <table className="tm-table" aria-label="Members">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Two-factor</th>
              <th scope="col">Joined</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => {
              const roles = assignableRoles(role, member.role, owners);
              return (
                <tr key={member.user_id} data-member={member.email}>
                  <td className="tm-email">
                    {member.email}
                    {member.you && <span className="badge tm-you">you</span>}
                  </td>
                  <td>
                    {roles.length > 0 ? (
                      <select
                        aria-label={`Role of ${member.email}`}
                        value={member.role}
                        disabled={changeRole.isPending}
                        onChange={(event) => {
                          remove.reset();
                          changeRole.mutate({
                            user_id: member.user_id,
                            role: event.target.value as Role,
                          });
                        }}
                      >
                        {roles.map((option) => (
                          <option key={option} value={option}>
                            {ROLE_LABELS[option]}
                          </option>
                        ))}
                      </select>
                    ) : (
                      ROLE_LABELS[member.role]
                    )}
                  </td>
                  <td>
                    <span className={`badge ${member.two_factor ? "tm-on" : "tm-off"}`}>
                      {member.two_factor ? "On" : "Off"}
                    </span>
                  </td>
                  <td>{shortDate(member.joined_at)}</td>
                  <td className="tm-actions">
                    {!member.you && mayRemove(role, member.role, owners) && (
                      <RemoveButton
                        email={member.email}
                        confirming={confirming === member.user_id}
                        pending={remove.isPending}
                        onAsk={() => {
                          changeRole.reset();
                          setConfirming(member.user_id);
                        }}
                        onCancel={() => setConfirming(null)}
                        onConfirm={() => remove.mutate({ user_id: member.user_id })}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ErrorMessage error={error} />
    </section>
  );
}

function RemoveButton(props: {
  email: string;
  confirming: boolean;
  pending: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  if (!props.confirming) {
    return (
      <button
        type="button"
        className="secondary"
        aria-label={`Remove ${props.email}`}
        onClick={props.onAsk}
      >
        Remove
      </button>
    );
  }
  return (
    <div className="tm-confirm">
      <span>Remove {props.email}? They lose access to this account at once.</span>
      <button type="button" className="danger" disabled={props.pending} onClick={props.onConfirm}>
        Yes, remove
      </button>
      <button type="button" className="secondary" onClick={props.onCancel}>
        Cancel
      </button>
    </div>
  );
}
