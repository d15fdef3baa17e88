/**
 * The only code that touches Prisma for teams: members, invitations, and the account's
 * security settings. Every change to who is in an account, or as what, runs in `locked`: one
 * transaction holding the account's row lock, so two changes to one team take turns and each
 * reads the owners the other left (two owners demoting each other at once cannot leave none).
 */
import { ACCOUNT_NAME } from "../../db/account-name.ts";
import type { Prisma, PrismaClient, Role } from "../../db/generated/client.ts";

type Tx = Prisma.TransactionClient;

/** A team's members and invitations as one locked transaction sees them. */
function lockedTeam(tx: Tx, accountId: string) {
  return {
    member(userId: string) {
      return tx.membership.findUnique({
        where: { accountId_userId: { accountId, userId } },
        select: { userId: true, role: true },
      });
    },

    memberByEmail(email: string) {
      return tx.membership.findFirst({
        where: { accountId, user: { email: { equals: email, mode: "insensitive" } } },
        select: { userId: true },
      });
    },

    owners() {
      return tx.membership.count({ where: { accountId, role: "owner" } });
    },

    async setRole(userId: string, role: Role): Promise<void> {
      await tx.membership.update({
        where: { accountId_userId: { accountId, userId } },
        data: { role },
      });
    },

    /**
     * Takes the member out; their sessions acting here lose the account, so their next
     * request acts in their first remaining account (or, with none, signs them out).
     */
    async removeMember(userId: string): Promise<void> {
      await tx.membership.delete({ where: { accountId_userId: { accountId, userId } } });
      await tx.session.updateMany({ where: { userId, accountId }, data: { accountId: null } });
    },

    /** Revokes every open invitation to `email` (a new one replaces them: old links die). */
    async revokeOpenInvites(email: string, now: Date): Promise<void> {
      await tx.invite.updateMany({
        where: {
          accountId,
          email: { equals: email, mode: "insensitive" },
          acceptedAt: null,
          revokedAt: null,
        },
        data: { revokedAt: now },
      });
    },

    /**
     * Revokes the open invitations `userId` sent whose role is not in `keep` (all of them for
     * an empty `keep`): an inviter removed or demoted takes back what they may no longer send.
     */
    async revokeInvitesBy(userId: string, keep: Role[], now: Date): Promise<void> {
      await tx.invite.updateMany({
        where: {
          accountId,
          invitedBy: userId,
          acceptedAt: null,
          revokedAt: null,
          role: { notIn: keep },
        },
        data: { revokedAt: now },
      });
    },

    /** Invitations still waiting for an answer (not accepted, revoked nor expired). */
    pendingInvites(now: Date) {
      return tx.invite.count({
        where: { accountId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      });
    },

    createInvite(data: {
      email: string;
      role: Role;
      tokenHash: string;
      invitedBy: string;
      createdAt: Date;
      expiresAt: Date;
    }) {
      return tx.invite.create({ data: { accountId, ...data } });
    },
  };
}

export type LockedTeam = ReturnType<typeof lockedTeam>;

/**
 * Withdraws an invitation whose sender has since lost the right to send it (removed or demoted
 * before such changes revoked their invitations): true when it was, and must not be honoured.
 */
async function withdrawnForInviter(
  tx: Tx,
  input: {
    inviteId: string;
    accountId: string;
    invitedBy: string;
    now: Date;
    inviterMay: (inviterRole: Role | null) => boolean;
  },
): Promise<boolean> {
  const inviter = await tx.membership.findUnique({
    where: { accountId_userId: { accountId: input.accountId, userId: input.invitedBy } },
    select: { role: true },
  });
  if (input.inviterMay(inviter?.role ?? null)) return false;
  await tx.invite.updateMany({
    where: { id: input.inviteId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: input.now },
  });
  return true;
}

export function createTeamRepository(prisma: PrismaClient) {
  return {
    /**
     * Runs `work` in one transaction holding the account's row lock (null when there is no
     * such account). Whatever it throws rolls everything back.
     */
    locked<T>(accountId: string, work: (team: LockedTeam) => Promise<T>): Promise<T | null> {
      return prisma.$transaction(async (tx) => {
        const rows = await tx.$queryRaw<unknown[]>`
          SELECT 1 FROM "Account" WHERE "id" = ${accountId} FOR UPDATE`;
        if (rows.length === 0) return null;
        return work(lockedTeam(tx, accountId));
      });
    },

    /** The account's members, in the order they joined, with what the Team page shows. */
    members(accountId: string) {
      return prisma.membership.findMany({
        where: { accountId },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: {
          userId: true,
          role: true,
          createdAt: true,
          user: { select: { email: true, totpEnabledAt: true } },
        },
      });
    },

    /** Invitations neither accepted nor revoked that expired after `since`, newest first. */
    openInvites(accountId: string, since: Date) {
      return prisma.invite.findMany({
        where: { accountId, acceptedAt: null, revokedAt: null, expiresAt: { gt: since } },
        orderBy: [{ createdAt: "desc" }, { id: "asc" }],
        take: 200,
      });
    },

    /** Emails of the given users (who invited whom). */
    async emailsOf(userIds: string[]): Promise<Map<string, string>> {
      if (userIds.length === 0) return new Map();
      const users = await prisma.user.findMany({
        where: { id: { in: [...new Set(userIds)] } },
        select: { id: true, email: true },
      });
      return new Map(users.map((user) => [user.id, user.email]));
    },

    account(accountId: string) {
      return prisma.account.findUnique({ where: { id: accountId }, select: ACCOUNT_NAME });
    },

    /** The invitation a link's token hash names, with what names its account. */
    inviteByTokenHash(tokenHash: string) {
      return prisma.invite.findUnique({
        where: { tokenHash },
        include: { account: { select: ACCOUNT_NAME } },
      });
    },

    /** Withdraws an open invitation of this account; false when there is none by that id. */
    async revokeInvite(accountId: string, id: string, now: Date): Promise<boolean> {
      const { count } = await prisma.invite.updateMany({
        where: { id, accountId, acceptedAt: null, revokedAt: null },
        data: { revokedAt: now },
      });
      return count === 1;
    },

    isMember(accountId: string, userId: string): Promise<boolean> {
      return prisma.membership.count({ where: { accountId, userId } }).then((count) => count > 0);
    },

    /**
     * Spends the invitation, makes the person a member with its role, and points their session
     * at the account, in one transaction: "gone" (nothing changed) unless this call's
     * conditional update took the still-open invitation, so of two concurrent accepts exactly
     * one joins; "member" when they were in the account already (their role stays).
     */
    acceptInvite(input: {
      inviteId: string;
      accountId: string;
      userId: string;
      role: Role;
      sessionId: string;
      now: Date;
      /** Whether the inviter, in the role they hold now (null: gone), may still send it. */
      inviterMay: (inviterRole: Role | null) => boolean;
      invitedBy: string;
    }): Promise<"joined" | "gone" | "member"> {
      const { inviteId, accountId, userId, role, sessionId, now } = input;
      return prisma.$transaction(async (tx) => {
        if (await withdrawnForInviter(tx, input)) {
          return "gone" as const;
        }
        const { count } = await tx.invite.updateMany({
          where: { id: inviteId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
          data: { acceptedAt: now },
        });
        if (count !== 1) return "gone" as const;
        const existing = await tx.membership.count({ where: { accountId, userId } });
        if (existing === 0) await tx.membership.create({ data: { accountId, userId, role } });
        await tx.session.updateMany({ where: { id: sessionId, userId }, data: { accountId } });
        await tx.user.updateMany({ where: { id: userId }, data: { lastAccountId: accountId } });
        return existing === 0 ? ("joined" as const) : ("member" as const);
      });
    },

    /**
     * A person new to Warden joins through the invitation, in one transaction: the invitation
     * proves the email, so the user is made confirmed, at home in the inviting account (no
     * account of their own), with the password they chose. A signup never confirmed with that
     * email, or a login left in no account (removed from its last one, it cannot log in to
     * accept), gets the password and the membership instead (its emailed links and sessions
     * end), as a password reset would give it.
     * "hasLogin" when the email has a confirmed login (they log in and accept), "gone"
     * (nothing changed) unless this call took the still-open invitation, so of two joins at
     * once exactly one makes the user.
     */
    async joinNewPerson(input: {
      inviteId: string;
      accountId: string;
      email: string;
      role: Role;
      passwordHash: string;
      now: Date;
      invitedBy: string;
      inviterMay: (inviterRole: Role | null) => boolean;
    }): Promise<
      | { outcome: "joined"; userId: string; twoFactor: boolean }
      | { outcome: "gone" }
      | { outcome: "hasLogin" }
    > {
      const { inviteId, accountId, email, role, passwordHash, now } = input;
      try {
        return await prisma.$transaction(async (tx) => {
          const existing = await tx.user.findUnique({
            where: { email },
            select: {
              id: true,
              emailConfirmedAt: true,
              totpEnabledAt: true,
              _count: { select: { memberships: true } },
            },
          });
          // A login in no account any more cannot log in to accept: it joins like a new one.
          if (existing?.emailConfirmedAt && existing._count.memberships > 0) {
            return { outcome: "hasLogin" as const };
          }
          if (await withdrawnForInviter(tx, input)) {
            return { outcome: "gone" as const };
          }
          const { count } = await tx.invite.updateMany({
            where: { id: inviteId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
            data: { acceptedAt: now },
          });
          if (count !== 1) return { outcome: "gone" as const };
          let userId: string;
          if (existing) {
            userId = existing.id;
            // In no account, their home moves here; a never-confirmed sign-up keeps its own.
            await tx.user.update({
              where: { id: userId },
              data: {
                passwordHash,
                emailConfirmedAt: existing.emailConfirmedAt ?? now,
                lastAccountId: accountId,
                ...(existing.emailConfirmedAt ? { accountId } : {}),
              },
            });
            await tx.emailToken.updateMany({
              where: { userId, usedAt: null },
              data: { usedAt: now },
            });
            // The password changed: sessions from before it end.
            await tx.session.deleteMany({ where: { userId } });
          } else {
            const user = await tx.user.create({
              data: {
                email,
                passwordHash,
                emailConfirmedAt: now,
                accountId,
                lastAccountId: accountId,
              },
            });
            userId = user.id;
          }
          const member = await tx.membership.count({ where: { accountId, userId } });
          if (member === 0) await tx.membership.create({ data: { accountId, userId, role } });
          // A login that had a second factor still gives it before the session may act.
          const twoFactor = Boolean(existing?.totpEnabledAt);
          return { outcome: "joined" as const, userId, twoFactor };
        });
      } catch (error) {
        // A signup of the same email got in between: that person logs in and accepts.
        if ((error as { code?: string }).code === "P2002") return { outcome: "hasLogin" };
        throw error;
      }
    },

    /** Acts in `accountId` from the session's next request on. */
    async pointSession(sessionId: string, userId: string, accountId: string): Promise<void> {
      await prisma.session.updateMany({ where: { id: sessionId, userId }, data: { accountId } });
    },

    security(accountId: string) {
      return prisma.account.findUnique({
        where: { id: accountId },
        select: { requireTwoFactor: true, auditRetentionDays: true },
      });
    },

    async setSecurity(
      accountId: string,
      data: { requireTwoFactor: boolean; auditRetentionDays: number },
    ): Promise<void> {
      await prisma.account.update({ where: { id: accountId }, data });
    },
  };
}

export type TeamRepository = ReturnType<typeof createTeamRepository>;
