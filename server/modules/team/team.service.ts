/**
 * Teammates: who is in an account and as what (shared/team/roles.ts), leaving, handing
 * ownership over, and invitations (invitations.ts). Every change to the team runs under the
 * account's row lock (team.repository.ts `locked`) and asks the pure rules (team.rules.ts)
 * with what it read there, so the last owner can never be removed, demoted or leave, even by
 * two requests at once; a new role counts from the member's next request.
 */
import type { InviteView, MemberView, TeamView } from "../../../shared/schemas/team.ts";
import type { Role } from "../../../shared/team/roles.ts";
import type { Caller } from "../../lib/caller.ts";
import { createInvitations } from "./invitations.ts";
import { refuseChange, refuseTransfer } from "./team.rules.ts";
import type { TeamDeps } from "./team.types.ts";
import { ownerMail, removedMail } from "./team-mails.ts";
import {
  accountName,
  actorAndTarget,
  locked,
  memberOf,
  placeMember,
  refused,
} from "./team-steps.ts";

export { LIMITS } from "./invitations.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Expired invitations stay on the Team page this long, so the inviter sees what lapsed. */
const SHOW_EXPIRED_MS = 30 * DAY_MS;

export function createTeamService(deps: TeamDeps) {
  const { repo, now, mailer, publicUrl } = deps;

  /** What a mail about a change in the account says: to whom, by whom, which account. */
  async function about(accountId: string, userId: string, by: string) {
    const [emails, account] = await Promise.all([repo.emailsOf([userId]), repo.account(accountId)]);
    const to = emails.get(userId);
    return to ? { to, by, account: accountName(account), publicUrl } : null;
  }

  async function teamView(caller: Caller): Promise<TeamView> {
    const at = now();
    const [members, invites] = await Promise.all([
      repo.members(caller.accountId),
      repo.openInvites(caller.accountId, new Date(at.getTime() - SHOW_EXPIRED_MS)),
    ]);
    const inviters = await repo.emailsOf(invites.map((invite) => invite.invitedBy));
    return {
      members: members.map(
        (member): MemberView => ({
          user_id: member.userId,
          email: member.user.email,
          role: member.role,
          joined_at: member.createdAt.toISOString(),
          two_factor: member.user.totpEnabledAt !== null,
          you: member.userId === caller.userId,
        }),
      ),
      invites: invites.map(
        (invite): InviteView => ({
          id: invite.id,
          email: invite.email,
          role: invite.role,
          invited_by: inviters.get(invite.invitedBy) ?? null,
          created_at: invite.createdAt.toISOString(),
          expires_at: invite.expiresAt.toISOString(),
          expired: invite.expiresAt.getTime() <= at.getTime(),
        }),
      ),
    };
  }

  return {
    /** The members (the caller marked) and the invitations waiting for an answer. */
    get: teamView,

    /**
     * Gives a member another role; takes effect on their next request. Invitations they sent
     * that the new role may not send are revoked with it.
     */
    async changeRole(caller: Caller, userId: string, role: Role): Promise<MemberView> {
      const actor = memberOf(caller);
      await locked(repo, actor.accountId, async (team) => {
        const { me, target, self } = await actorAndTarget(team, actor, userId);
        const change = { kind: "role" as const, role };
        const owners = await team.owners();
        refused(refuseChange({ actor: me.role, target: target.role, self, change, owners }));
        if (target.role !== role) await placeMember(team, userId, role, now());
      });
      const view = await teamView(caller);
      return view.members.find((member) => member.user_id === userId) as MemberView;
    },

    /**
     * Takes a member out of the account, revoking the invitations they sent; their sessions
     * move to another of their accounts, and they get an email saying so.
     */
    async remove(caller: Caller, userId: string): Promise<void> {
      const actor = memberOf(caller);
      await locked(repo, actor.accountId, async (team) => {
        const { me, target, self } = await actorAndTarget(team, actor, userId);
        const change = { kind: "remove" as const };
        const owners = await team.owners();
        refused(refuseChange({ actor: me.role, target: target.role, self, change, owners }));
        await placeMember(team, userId, null, now());
      });
      // Told by email: their next request acts elsewhere (or signs them out) without a word.
      const mail =
        userId === actor.userId ? null : await about(actor.accountId, userId, actor.email);
      if (mail) await mailer.send(removedMail(mail));
    },

    /** The caller leaves the account they act in (not as its last owner), revoking their invitations. */
    async leave(caller: Caller): Promise<void> {
      const person = memberOf(caller);
      await locked(repo, person.accountId, async (team) => {
        const { me } = await actorAndTarget(team, person, person.userId);
        const change = { kind: "leave" as const };
        const owners = await team.owners();
        refused(refuseChange({ actor: me.role, target: me.role, self: true, change, owners }));
        await placeMember(team, person.userId, null, now());
      });
    },

    /**
     * The member becomes an owner and the caller, an owner, becomes an admin, at once; the new
     * owner gets an email saying so.
     */
    async transferOwnership(caller: Caller, userId: string): Promise<void> {
      const actor = memberOf(caller);
      await locked(repo, actor.accountId, async (team) => {
        const { me, target, self } = await actorAndTarget(team, actor, userId);
        refused(refuseTransfer({ actor: me.role, target: target.role, self }));
        await placeMember(team, userId, "owner", now());
        // An admin may not invite owners: the former owner's pending owner invitations go.
        await placeMember(team, actor.userId, "admin", now());
      });
      const mail = await about(actor.accountId, userId, actor.email);
      if (mail) await mailer.send(ownerMail(mail));
    },

    ...createInvitations(deps),
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
