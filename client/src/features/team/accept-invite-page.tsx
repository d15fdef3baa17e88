/**
 * /invite?token=…: the page an invitation email links to. It says who invited whom to which
 * account as what, and then: Accept, for the person signed in with the invited email; a way
 * to log out, for someone else; and, signed out, how to log in (or sign up first, with that
 * email) and come back to this link.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useSearchParams } from "react-router";
import { MESSAGES } from "../../../../shared/messages.ts";
import type { InvitePreview } from "../../../../shared/schemas/team.ts";
import { ROLE_LABELS } from "../../../../shared/team/roles.ts";
import { useRefreshSession, useSession } from "../../lib/session.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
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
    return (
      <>
        <p>
          This invitation is for <strong>{invite.email}</strong> and works until{" "}
          {shortDate(invite.expires_at)}. To accept it:
        </p>
        <ol className="stack">
          <li>
            <Link to="/login">Log in</Link> as {invite.email}. No Warden login yet?{" "}
            <Link to="/signup">Sign up</Link> with {invite.email} and confirm your email first
            (signing up also gives you an account of your own).
          </li>
          <li>Then open the link in the invitation email again, and accept.</li>
        </ol>
      </>
    );
  }
  if (user.email.toLowerCase() !== invite.email.toLowerCase()) {
    return <WrongPerson invited={invite.email} signedIn={user.email} />;
  }
  return <AcceptButton token={token} />;
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
        text={`This invitation is for ${invited}, and you are signed in as ${signedIn}. Log out, then log in as ${invited} to accept it.`}
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
