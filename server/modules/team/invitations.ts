/**
 * Invitations by email. A team manager (owner or admin) invites an email as admin, analyst or
 * viewer; only an owner may invite another owner (ownership otherwise moves by transfer). The
 * link carries 20 random bytes (only their SHA-256 is stored) and works for 7 days; inviting
 * the same email again replaces it (the old link dies). Only the person signed in with that
 * email may accept; someone without a Warden login sets a password on the link's page and is
 * in at once (`joinInvite`: the invitation proves the email, and no account of their own is
 * made). Bounded: 50 waiting per
 * account, 30 sent an hour per account and 3 an hour to one address, so they cannot be spam.
 * An invitation lasts no longer than its inviter's right to send it: removing, or demoting,
 * a member revokes those of theirs the new place may not send (team-steps.ts `placeMember`).
 */
import { MESSAGES } from "../../../shared/messages.ts";
import {
  INVITE_DAYS,
  type InviteInput,
  type InvitePreview,
  type InviteStatus,
  type InviteView,
  type Joined,
  type JoinInvite,
  PENDING_INVITES_MAX,
} from "../../../shared/schemas/team.ts";
import { ROLE_LABELS, type Role } from "../../../shared/team/roles.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Caller } from "../../lib/caller.ts";
import { hashPassword } from "../../lib/password.ts";
import { randomToken, sha256Hex } from "../../lib/tokens.ts";
import type { Limit } from "../throttle/throttle.service.ts";
import { invitesKept, refuseInvite } from "./team.rules.ts";
import type { TeamDeps } from "./team.types.ts";
import { accountName, locked, memberOf, refused } from "./team-steps.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

export const LIMITS = {
  // Each join hashes a password: bounded like signups.
  joinsPerIp: { limit: 20, windowMs: HOUR_MS, message: MESSAGES.tooManyRequests },
  invitesPerAccount: { limit: 30, windowMs: HOUR_MS, message: MESSAGES.tooManyInvites },
  // One address, whichever accounts invite it.
  invitesPerEmail: { limit: 3, windowMs: HOUR_MS, message: MESSAGES.tooManyInvites },
} satisfies Record<string, Limit>;

/** Why an invitation can no longer be accepted. */
const CLOSED: Record<InviteStatus, string> = {
  pending: MESSAGES.inviteUsed,
  accepted: MESSAGES.inviteUsed,
  revoked: MESSAGES.inviteRevoked,
  expired: MESSAGES.inviteExpired,
};

function statusOf(
  invite: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
  now: Date,
): InviteStatus {
  if (invite.acceptedAt) return "accepted";
  if (invite.revokedAt) return "revoked";
  return invite.expiresAt.getTime() <= now.getTime() ? "expired" : "pending";
}

export function createInvitations({
  repo,
  sessions,
  throttle,
  mailer,
  audit,
  publicUrl,
  now,
}: TeamDeps) {
  async function sendInvite(
    to: string,
    inviter: string,
    account: string,
    role: Role,
    token: string,
  ) {
    const link = `${publicUrl}/invite?${new URLSearchParams({ token })}`;
    await mailer.send({
      to,
      subject: `${inviter} invited you to ${account} on Warden`,
      text: `${inviter} invited you to join ${account} on Warden as ${ROLE_LABELS[role]}.\n\nAccept the invitation here (the link works for ${INVITE_DAYS} days):\n${link}\n\nNew to Warden? Choose a password on that page and you are in: no other sign-up needed. Already have a Warden login as ${to}? Log in from that page and accept.\n\nIf you did not expect this invitation, ignore this message.\n`,
    });
  }

  return {
    /**
     * Invites an email into the caller's account with a role, replacing any open invitation
     * to it, and emails the link: 403 for a role the inviter may not give, 409 for a member or
     * a full list of pending invitations, 429 past the hourly limits.
     */
    async invite(caller: Caller, input: InviteInput): Promise<InviteView> {
      const inviter = memberOf(caller);
      refused(refuseInvite(inviter.role, input.role));
      await throttle.consume(`team-invite:${inviter.accountId}`, LIMITS.invitesPerAccount);
      await throttle.consume(`team-invite-to:${input.email}`, LIMITS.invitesPerEmail);
      const token = randomToken(20);
      const createdAt = now();
      const invite = await locked(repo, inviter.accountId, async (team) => {
        // The role as the lock sees it: removed or demoted since this request's session was
        // read, the inviter's invitations were revoked, and this one must not outlive that.
        const me = await team.member(inviter.userId);
        if (!me) throw new AppError("FORBIDDEN", MESSAGES.forbiddenForRole);
        refused(refuseInvite(me.role, input.role));
        if (await team.memberByEmail(input.email)) {
          throw new AppError("CONFLICT", MESSAGES.alreadyMember);
        }
        await team.revokeOpenInvites(input.email, createdAt);
        if ((await team.pendingInvites(createdAt)) >= PENDING_INVITES_MAX) {
          throw new AppError("CONFLICT", MESSAGES.tooManyPendingInvites);
        }
        return team.createInvite({
          email: input.email,
          role: input.role,
          tokenHash: sha256Hex(token),
          invitedBy: inviter.userId,
          createdAt,
          expiresAt: new Date(createdAt.getTime() + INVITE_DAYS * DAY_MS),
        });
      });
      const account = accountName(await repo.account(inviter.accountId));
      await sendInvite(invite.email, inviter.email, account, invite.role, token);
      return {
        id: invite.id,
        email: invite.email,
        role: invite.role,
        invited_by: inviter.email,
        created_at: invite.createdAt.toISOString(),
        expires_at: invite.expiresAt.toISOString(),
        expired: false,
      };
    },

    /** Withdraws an open invitation: its link stops working. 404 for none in this account. */
    async revokeInvite(caller: Caller, id: string): Promise<void> {
      if (!(await repo.revokeInvite(caller.accountId, id, now()))) {
        throw new AppError("NOT_FOUND", MESSAGES.inviteNotFound);
      }
    },

    /** What an invitation link offers, for the /invite page before anyone signs in. */
    async invitePreview(token: string): Promise<InvitePreview> {
      const invite = await repo.inviteByTokenHash(sha256Hex(token));
      if (!invite) throw new AppError("NOT_FOUND", MESSAGES.inviteLinkInvalid);
      const inviters = await repo.emailsOf([invite.invitedBy]);
      return {
        account_name: accountName(invite.account),
        invited_by: inviters.get(invite.invitedBy) ?? null,
        email: invite.email,
        role: invite.role,
        expires_at: invite.expiresAt.toISOString(),
        status: statusOf(invite, now()),
      };
    },

    /**
     * The signed-in person joins the account an invitation names, with its role, and their
     * session acts there from the next request: 403 when they are signed in with another
     * email, 404 for an unknown link, 409 for one expired, withdrawn or used.
     */
    async acceptInvite(
      caller: Caller,
      sessionId: string,
      token: string,
      ip: string,
    ): Promise<Joined> {
      const person = memberOf(caller);
      const invite = await repo.inviteByTokenHash(sha256Hex(token));
      if (!invite) throw new AppError("NOT_FOUND", MESSAGES.inviteLinkInvalid);
      if (invite.email.toLowerCase() !== person.email.toLowerCase()) {
        throw new AppError(
          "FORBIDDEN",
          // The invited address is not repeated to whoever holds the link and is not it.
          `This invitation was sent to another email address: you are signed in as ${person.email}. Log in with the address it was sent to, then open the link again.`,
        );
      }
      const joined = {
        account_id: invite.accountId,
        name: accountName(invite.account),
        role: invite.role,
      };
      const at = now();
      const status = statusOf(invite, at);
      const outcome =
        status === "pending"
          ? await repo.acceptInvite({
              inviteId: invite.id,
              accountId: invite.accountId,
              userId: person.userId,
              role: invite.role,
              sessionId,
              now: at,
              invitedBy: invite.invitedBy,
              inviterMay: (inviterRole) => invitesKept(inviterRole).includes(invite.role),
            })
          : "gone";
      if (outcome === "gone") {
        // Closed already, or taken by a concurrent accept: read what became of it.
        const current = await repo.inviteByTokenHash(invite.tokenHash);
        const latest = statusOf(current ?? { ...invite, revokedAt: at }, at);
        // Accepted already (a second click, or a second tab at the same moment): they are in.
        if (latest === "accepted" && (await repo.isMember(invite.accountId, person.userId))) {
          await repo.pointSession(sessionId, person.userId, invite.accountId);
          return joined;
        }
        throw new AppError("CONFLICT", CLOSED[latest]);
      }
      if (outcome === "joined") {
        await audit.record({
          accountId: invite.accountId,
          actor: { kind: "member", id: person.userId, name: person.email },
          ip,
          action: "team.acceptInvite",
          target: invite.id,
          after: { email: invite.email, role: invite.role },
        });
      }
      return joined;
    },

    /**
     * A person new to Warden joins the invitation's account with the password they choose,
     * and is signed in there: no confirmation mail (the invitation proves the email), no
     * account of their own. 404 for an unknown link, 409 for one expired, withdrawn or used
     * (of two joins at once, one makes the user and the other is told it was used), and 409
     * when the email has a login already: that person logs in and accepts.
     */
    async joinInvite(
      input: JoinInvite,
      ip: string,
    ): Promise<{ token: string; expiresAt: Date; joined: Joined; userId: string }> {
      await throttle.consume(`invite-join-ip:${ip}`, LIMITS.joinsPerIp);
      const invite = await repo.inviteByTokenHash(sha256Hex(input.token));
      if (!invite) throw new AppError("NOT_FOUND", MESSAGES.inviteLinkInvalid);
      const status = statusOf(invite, now());
      if (status !== "pending") throw new AppError("CONFLICT", CLOSED[status]);
      const passwordHash = await hashPassword(input.password);
      const at = now();
      const result = await repo.joinNewPerson({
        inviteId: invite.id,
        accountId: invite.accountId,
        email: invite.email.toLowerCase(),
        role: invite.role,
        passwordHash,
        now: at,
        invitedBy: invite.invitedBy,
        inviterMay: (inviterRole) => invitesKept(inviterRole).includes(invite.role),
      });
      if (result.outcome !== "joined") {
        // Closed meanwhile (a concurrent join that made the login is one): say what became of it.
        const current = await repo.inviteByTokenHash(invite.tokenHash);
        const latest = statusOf(current ?? { ...invite, revokedAt: at }, at);
        if (result.outcome === "hasLogin" && latest === "pending") {
          throw new AppError("CONFLICT", MESSAGES.inviteHasLogin);
        }
        throw new AppError("CONFLICT", CLOSED[latest]);
      }
      await audit.record({
        accountId: invite.accountId,
        actor: { kind: "member", id: result.userId, name: invite.email },
        ip,
        action: "team.acceptInvite",
        target: invite.id,
        after: { email: invite.email, role: invite.role, new_login: true },
      });
      const session = await sessions.create(result.userId, invite.accountId, result.twoFactor);
      return {
        ...session,
        userId: result.userId,
        joined: {
          account_id: invite.accountId,
          name: accountName(invite.account),
          role: invite.role,
        },
      };
    },
  };
}
