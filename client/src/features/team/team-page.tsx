/**
 * The Team page: the account's members and their roles, invitations, ownership and leaving,
 * and the account's security settings. Every member may see it; the controls follow their
 * role (shared/team/roles.ts), and the server checks every change again.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LoadError } from "../../components/save-status.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { useSession } from "../../lib/session.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { AccountNameSection } from "./account-name-section.tsx";
import { InvitesSection } from "./invites-section.tsx";
import { MembersSection } from "./members-section.tsx";
import { OwnAccountSection } from "./own-account-section.tsx";
import { OwnershipSection } from "./ownership-section.tsx";
import { SecuritySection } from "./security-section.tsx";
import { withArticle } from "./team-format.ts";
import "../../components/console.css";
import "./team.css";

export default function TeamPage() {
  return (
    <SignedIn>
      <h1>Team</h1>
      <Team />
    </SignedIn>
  );
}

function Team() {
  const trpc = useTRPC();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const team = useQuery(trpc.team.get.queryOptions());
  if (!user) return null;
  if (team.isError) return <LoadError what="the team" error={errorMessage(team.error)} />;
  if (!team.data) return <p className="loading">Loading…</p>;
  // A change may be to your own role: re-read the session and everything shown with it,
  // keeping what is on screen until the new answers arrive.
  const onChanged = () => queryClient.invalidateQueries();
  return (
    <>
      <p className="tm-intro">You are {withArticle(user.role)} in this account.</p>
      <MembersSection members={team.data.members} role={user.role} onChanged={onChanged} />
      <InvitesSection invites={team.data.invites} role={user.role} onChanged={onChanged} />
      <AccountNameSection />
      <OwnershipSection members={team.data.members} role={user.role} />
      <OwnAccountSection />
      <SecuritySection />
    </>
  );
}
