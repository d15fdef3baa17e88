/**
 * Invitations: a team manager invites an email with a role (the form validates with the same
 * schema as the server, and the role matrix says what each role may do); the invitations
 * waiting for an answer are listed, each withdrawn with Revoke.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { type InviteView, ZInviteInput } from "../../../../shared/schemas/team.ts";
import { can, ROLE_LABELS, type Role } from "../../../../shared/team/roles.ts";
import { ErrorMessage } from "../../components/error-message.tsx";
import { roleReason } from "../../components/role-reason.ts";
import { fieldErrors, useTRPC } from "../../lib/trpc.ts";
import { issuesByPath } from "../../lib/zod-issues.ts";
import { RoleMatrix } from "./role-matrix.tsx";
import { invitableRoles, shortDate } from "./team-format.ts";

type Props = {
  invites: InviteView[];
  role: Role;
  onChanged: () => Promise<unknown>;
};

export function InvitesSection({ invites, role, onChanged }: Props) {
  const manages = can(role, "team");
  return (
    <section className="panel tm-panel" aria-labelledby="invites-title">
      <h2 id="invites-title">Invitations</h2>
      {manages ? (
        <InviteForm role={role} onInvited={onChanged} />
      ) : (
        <p className="config-note" role="note">
          {roleReason(role, "team")} An admin or an owner invites members and changes roles.
        </p>
      )}
      <RoleMatrix />
      <PendingInvites invites={invites} manages={manages} onRevoked={onChanged} />
    </section>
  );
}

function InviteForm({ role, onInvited }: { role: Role; onInvited: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const roles = invitableRoles(role);
  const [email, setEmail] = useState("");
  const [invitedRole, setInvitedRole] = useState<Role>("analyst");
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [sent, setSent] = useState<string | null>(null);
  const invite = useMutation(
    trpc.team.invite.mutationOptions({
      onSuccess: (view) => {
        setSent(view.email);
        setEmail("");
        void onInvited();
      },
    }),
  );
  const errors = { ...fieldErrors(invite.error), ...localErrors };

  function submit(event: FormEvent) {
    event.preventDefault();
    invite.reset();
    setSent(null);
    const checked = ZInviteInput.safeParse({ email, role: invitedRole });
    if (!checked.success) {
      setLocalErrors(issuesByPath(checked.error));
      return;
    }
    setLocalErrors({});
    invite.mutate(checked.data);
  }

  return (
    <>
      <form
        className="inline-form tm-invite"
        onSubmit={submit}
        noValidate
        aria-label="Invite a member"
      >
        <label>
          Email
          <input
            type="email"
            name="invite_email"
            placeholder="colleague@example.com"
            value={email}
            maxLength={254}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? "invite_email-error" : undefined}
            onChange={(event) => {
              setEmail(event.target.value);
              setLocalErrors({});
            }}
          />
          {errors.email && (
            <span className="field-error" id="invite_email-error">
              {errors.email}
            </span>
          )}
        </label>
        <label className="tm-role">
          Role
          <select
            name="invite_role"
            value={invitedRole}
            onChange={(event) => setInvitedRole(event.target.value as Role)}
          >
            {roles.map((option) => (
              <option key={option} value={option}>
                {ROLE_LABELS[option]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={invite.isPending}>
          {invite.isPending ? "Sending…" : "Send invitation"}
        </button>
      </form>
      {sent && (
        <p className="message success" role="status">
          Invitation sent to {sent}. The link in it works for 7 days.
        </p>
      )}
      <ErrorMessage error={!fieldErrors(invite.error).email && invite.error} />
    </>
  );
}

function PendingInvites(props: {
  invites: InviteView[];
  manages: boolean;
  onRevoked: () => Promise<unknown>;
}) {
  const trpc = useTRPC();
  const revoke = useMutation(
    trpc.team.revokeInvite.mutationOptions({ onSettled: props.onRevoked }),
  );
  if (props.invites.length === 0) {
    return <p className="config-note">No invitations are waiting for an answer.</p>;
  }
  return (
    <>
      <ul className="tm-invites" aria-label="Pending invitations">
        {props.invites.map((invite) => (
          <li key={invite.id} data-invite={invite.email}>
            <div className="tm-invite-main">
              <strong>{invite.email}</strong>
              <span className="badge">{ROLE_LABELS[invite.role]}</span>
              {invite.expired && <span className="badge tm-off">Expired</span>}
            </div>
            <small>
              Invited by {invite.invited_by ?? "a former member"} on {shortDate(invite.created_at)}
              {" · "}
              {invite.expired ? "Expired" : "Expires"} {shortDate(invite.expires_at)}
            </small>
            {props.manages && (
              <button
                type="button"
                className="secondary"
                aria-label={`Revoke the invitation to ${invite.email}`}
                disabled={revoke.isPending}
                onClick={() => revoke.mutate({ id: invite.id })}
              >
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
      <ErrorMessage error={revoke.error} />
    </>
  );
}
