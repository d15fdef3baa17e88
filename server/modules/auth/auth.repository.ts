/** The only code that touches Prisma for users, sessions and emailed tokens. */

import { ACCOUNT_NAME } from "../../db/account-name.ts";
import type { EmailTokenPurpose, Prisma, PrismaClient } from "../../db/generated/client.ts";
import { defaultAlertRows } from "../alerts/alerts.entry.ts";

/** What a session is checked with: its user and the user's memberships, oldest first. */
const SESSION_USER = {
  user: {
    select: {
      id: true,
      accountId: true,
      email: true,
      totpEnabledAt: true,
      memberships: {
        select: {
          id: true,
          accountId: true,
          role: true,
          account: { select: { requireTwoFactor: true } },
        },
        orderBy: { createdAt: "asc" },
      },
    },
  },
} as const satisfies Prisma.SessionInclude;

export function createAuthRepository(prisma: PrismaClient) {
  return {
    findUserByEmail(email: string) {
      return prisma.user.findUnique({ where: { email } });
    },

    findUserById(id: string) {
      return prisma.user.findUnique({ where: { id } });
    },

    /** Creates the merchant's account (named `name`) and its owner; null when the email is taken. */
    async createAccountWithUser(email: string, passwordHash: string, name = "") {
      try {
        // The person who signs up owns the account they create.
        return await prisma.$transaction(async (tx) => {
          const user = await tx.user.create({
            data: { email, passwordHash, account: { create: { name } } },
          });
          await tx.membership.create({
            data: { accountId: user.accountId, userId: user.id, role: "owner" },
          });
          await tx.alertRule.createMany({ data: defaultAlertRows(user.accountId) });
          return user;
        });
      } catch (error) {
        if ((error as { code?: string }).code === "P2002") return null;
        throw error;
      }
    },

    /** A new account named `name`, owned by this person; its id. */
    createOwnedAccount(userId: string, name: string) {
      return prisma.$transaction(async (tx) => {
        const account = await tx.account.create({ data: { name }, select: { id: true } });
        await tx.membership.create({ data: { accountId: account.id, userId, role: "owner" } });
        await tx.alertRule.createMany({ data: defaultAlertRows(account.id) });
        return account.id;
      });
    },

    /**
     * A second signup for a still-unconfirmed email: its password replaces the first one and
     * the earlier confirmation links stop working, so whoever confirms gets the password they
     * chose, never one picked by someone who registered the address first. False (nothing
     * changed) when the email got confirmed meanwhile.
     */
    replaceUnconfirmedSignup(userId: string, passwordHash: string, now: Date) {
      return prisma.$transaction(async (tx) => {
        const { count } = await tx.user.updateMany({
          where: { id: userId, emailConfirmedAt: null },
          data: { passwordHash },
        });
        if (count !== 1) return false;
        await tx.emailToken.updateMany({
          where: { userId, purpose: "confirm", usedAt: null },
          data: { usedAt: now },
        });
        return true;
      });
    },

    markEmailConfirmed(userId: string, at: Date) {
      return prisma.user.update({ where: { id: userId }, data: { emailConfirmedAt: at } });
    },

    setPasswordHash(userId: string, passwordHash: string) {
      return prisma.user.update({ where: { id: userId }, data: { passwordHash } });
    },

    createSession(data: {
      id: string;
      secretHash: Uint8Array;
      userId: string;
      expiresAt: Date;
      accountId: string;
      pendingTwoFactor: boolean;
    }) {
      return prisma.session.create({
        data: { ...data, secretHash: Buffer.from(data.secretHash) },
      });
    },

    /** The session, its user and the user's memberships (oldest first), in one read. */
    findSessionWithUser(id: string) {
      return prisma.session.findUnique({ where: { id }, include: SESSION_USER });
    },

    /** The same for many sessions at once (the ones that still exist). */
    findSessionsWithUser(ids: string[]) {
      return prisma.session.findMany({ where: { id: { in: ids } }, include: SESSION_USER });
    },

    /** The user's memberships, oldest first (the account they signed up with comes first). */
    memberships(userId: string) {
      return prisma.membership.findMany({
        where: { userId },
        select: { accountId: true, role: true },
        orderBy: { createdAt: "asc" },
      });
    },

    /**
     * The accounts a person belongs to, for the header's switch: their role and what names
     * the account (db/account-name.ts).
     */
    accountsOf(userId: string) {
      return prisma.membership.findMany({
        where: { userId },
        orderBy: { createdAt: "asc" },
        select: {
          accountId: true,
          role: true,
          account: { select: ACCOUNT_NAME },
        },
      });
    },

    /** Points the session at another of the user's accounts (switching, or a lost membership). */
    setSessionAccount(id: string, accountId: string) {
      return prisma.session.updateMany({ where: { id }, data: { accountId } });
    },

    /** Where a login takes the person next time (while they are a member there). */
    setLastAccount(userId: string, accountId: string) {
      return prisma.user.updateMany({ where: { id: userId }, data: { lastAccountId: accountId } });
    },

    /** The second factor was given: the session may act from now on. */
    completeTwoFactor(id: string) {
      return prisma.session.updateMany({ where: { id }, data: { pendingTwoFactor: false } });
    },

    extendSession(id: string, expiresAt: Date) {
      return prisma.session.updateMany({ where: { id }, data: { expiresAt } });
    },

    deleteSession(id: string) {
      return prisma.session.deleteMany({ where: { id } });
    },

    /** Ends every session of the user, except `keepId` when given. */
    deleteUserSessions(userId: string, keepId?: string) {
      return prisma.session.deleteMany({
        where: { userId, ...(keepId ? { id: { not: keepId } } : {}) },
      });
    },

    createEmailToken(data: {
      tokenHash: string;
      purpose: EmailTokenPurpose;
      userId: string;
      email: string;
      expiresAt: Date;
    }) {
      return prisma.emailToken.create({ data });
    },

    /** A token that is unused, unexpired, of this purpose and bound to this email. */
    findUsableEmailToken(tokenHash: string, purpose: EmailTokenPurpose, email: string, now: Date) {
      return prisma.emailToken.findFirst({
        where: { tokenHash, purpose, email, usedAt: null, expiresAt: { gt: now } },
      });
    },

    /**
     * Marks the token used; true only for the one caller that wins, so a token
     * cannot be spent twice even by two concurrent requests.
     */
    async consumeEmailToken(tokenHash: string, now: Date): Promise<boolean> {
      const { count } = await prisma.emailToken.updateMany({
        where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      return count === 1;
    },

    /**
     * Spends a reset token, sets the password and ends all of the user's sessions in one
     * transaction: false (and nothing changed) when the token was already spent or expired.
     */
    spendTokenAndResetPassword(tokenHash: string, userId: string, passwordHash: string, now: Date) {
      return prisma.$transaction(async (tx) => {
        const { count } = await tx.emailToken.updateMany({
          where: { tokenHash, userId, usedAt: null, expiresAt: { gt: now } },
          data: { usedAt: now },
        });
        if (count !== 1) return false;
        // Every other reset link of the user dies with this one.
        await tx.emailToken.updateMany({
          where: { userId, purpose: "recovery", usedAt: null },
          data: { usedAt: now },
        });
        await tx.user.update({ where: { id: userId }, data: { passwordHash } });
        await tx.session.deleteMany({ where: { userId } });
        return true;
      });
    },

    /** Removes expired sessions and emailed tokens (a spent token also expires in time). */
    async deleteExpired(now: Date): Promise<{ sessions: number; tokens: number }> {
      const [sessions, tokens] = await prisma.$transaction([
        prisma.session.deleteMany({ where: { expiresAt: { lt: now } } }),
        prisma.emailToken.deleteMany({ where: { expiresAt: { lt: now } } }),
      ]);
      return { sessions: sessions.count, tokens: tokens.count };
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
