/**
 * /invite?token=…: the page an invitation email links to. It says who invited whom to which
 * account as what, and then: Accept, for the person signed in with the invited email; a way
 * to log out, for someone else; and, signed out, a password to choose (a person new to
 * Warden is in at once, in the inviting account) or a way to log in that comes back here.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { MESSAGES } from "../../../../shared/messages.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../../../shared/schemas/auth.ts";
import type { InvitePreview } from "../../../../shared/schemas/team.ts";
import { ROLE_LABELS } from "../../../../shared/team/roles.ts";
import { PasswordField } from "../../components/text-field.tsx";
import { useRefreshSession, useSession } from "../../lib/session.ts";
import { errorMessage, fieldErrors, useTRPC } from "../../lib/trpc.ts";
import { AuthLayout, FormMessage } from "../auth/auth-layout.tsx";
import { shortDate } from "./team-format.ts";

export default function AcceptInvitePage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  return (
    <AuthLayout title="Invitation">
      {token ? (
        <Invitation token={token} />
      ) : (
        <FormMessage
          kind="error"
          text="This link has no invitation in it. Open the link from the invitation email."
        />
      )}
    </AuthLayout>
  );
}

function Invitation({ token }: { token: string }) {
  const trpc = useTRPC();
  const preview = useQuery(trpc.team.invitePreview.queryOptions({ token }, { retry: false }));
  if (preview.isError) return <FormMessage kind="error" text={errorMessage(preview.error)} />;
  if (!preview.data) return <p className="loading">Loading…</p>;
  const invite = preview.data;
  return (
    <div className="stack">
      <p data-invite-summary>
        <strong>{invite.invited_by ?? "A member"}</strong> invited you to join{" "}
        <strong>{invite.account_name}</strong> on Warden as {ROLE_LABELS[invite.role]}.
      </p>
      <Answer invite={invite} token={token} />
    </div>
  );
}

const CLOSED: Record<Exclude<InvitePreview["status"], "pending">, string> = {
  expired: MESSAGES.inviteExpired,
  revoked: MESSAGES.inviteRevoked,
  accepted: MESSAGES.inviteUsed,
};

function Answer({ invite, token }: { invite: InvitePreview; token: string }) {
  const { user, isLoading } = useSession();
  if (invite.status !== "pending") {
    return (
      <>
        <FormMessage kind="error" text={CLOSED[invite.status]} />
        {user && <Link to="/homepage/dashboard">Open the console</Link>}
      </>
    );
  }
  if (isLoading) return <p className="loading">Loading…</p>;
  if (!user || user.pendingTwoFactor) {
    const back = `/invite?${new URLSearchParams({ token })}`;
    return (
      <>
        <p>
          This invitation is for <strong>{invite.email}</strong> and works until{" "}
          {shortDate(invite.expires_at)}.
        </p>
        <JoinForm invite={invite} token={token} />
        <p>
          Already have a Warden login as {invite.email}?{" "}
          <Link to={`/login?${new URLSearchParams({ next: back })}`}>Log in</Link> and accept the
          invitation.
        </p>
      </>
    );
  }
  if (user.email.toLowerCase() !== invite.email.toLowerCase()) {
    return <WrongPerson invited={invite.email} signedIn={user.email} />;
  }
  return <AcceptButton token={token} />;
}

/** A person new to Warden chooses a password and is signed in, in the inviting account. */
function JoinForm({ invite, token }: { invite: InvitePreview; token: string }) {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const [password, setPassword] = useState("");
  const join = useMutation(
    trpc.team.joinInvite.mutationOptions({
      onSuccess: () => {
        // Reset first, so the console waits for the new session ("Loading...") instead of
        // sending a signed-out visitor to /login; leave now, so this page does not show its
        // link as used.
        const refreshed = refreshSession();
        navigate("/homepage/dashboard");
        return refreshed;
      },
    }),
  );
  const passwordError = fieldErrors(join.error).password;

  function submit(event: FormEvent) {
    event.preventDefault();
    join.mutate({ token, password });
  }

  return (
    <form onSubmit={submit} aria-label="Join with a new password" className="stack">
      <h2>New to Warden?</h2>
      <p>Choose a password for {invite.email}: you join at once, no other sign-up needed.</p>
      <PasswordField
        fresh
        label="Choose a password"
        name="password"
        minLength={PASSWORD_MIN}
        maxLength={PASSWORD_MAX}
        aria-describedby="join-password-hint"
        value={password}
        onValue={setPassword}
      />
      <small id="join-password-hint">
        {passwordError ?? `${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`}
      </small>
      <button type="submit" disabled={join.isPending}>
        {join.isPending ? "Joining…" : `Join ${invite.account_name}`}
      </button>
      <FormMessage
        kind="error"
        text={passwordError ? null : join.error && errorMessage(join.error)}
      />
    </form>
  );
}

function AcceptButton({ token }: { token: string }) {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const accept = useMutation(
    trpc.team.acceptInvite.mutationOptions({
      onSuccess: async () => {
        // The session now acts in the joined account: nothing cached belongs to it.
        navigate("/homepage/dashboard");
        await refreshSession();
      },
    }),
  );
  return (
    <>
      <button type="button" disabled={accept.isPending} onClick={() => accept.mutate({ token })}>
        {accept.isPending ? "Accepting…" : "Accept the invitation"}
      </button>
      <FormMessage kind="error" text={accept.error && errorMessage(accept.error)} />
    </>
  );
}

function WrongPerson({ invited, signedIn }: { invited: string; signedIn: string }) {
  const trpc = useTRPC();
  const refreshSession = useRefreshSession();
  const logout = useMutation(trpc.auth.logout.mutationOptions({ onSettled: refreshSession }));
  return (
    <>
      <FormMessage
        kind="error"
        text={`This invitation is for ${invited}, and you are signed in as ${signedIn}. Log out, then join or log in as ${invited} to accept it.`}
      />
      <div>
        <button
          type="button"
          className="secondary"
          disabled={logout.isPending}
          onClick={() => logout.mutate()}
        >
          Log out
        </button>
      </div>
    </>
  );
}
