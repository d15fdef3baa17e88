/**
 * Sessions as Lucia's guide describes them: the token is "<id>.<secret>", the database keeps
 * only SHA-256(secret), the check is constant-time, and a session used in its second half
 * is extended to a fresh 30 days.
 */
import type { SessionUser } from "../../../shared/schemas/auth.ts";
import type { Role } from "../../../shared/team/roles.ts";
import { accountName, distinctNames } from "../../db/account-name.ts";
import { AppError } from "../../lib/app-error.ts";
import { randomToken, sameBytes, sha256Bytes } from "../../lib/tokens.ts";
import type { AuthRepository } from "./auth.repository.ts";

export const SESSION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
const SESSION_MS = SESSION_DAYS * DAY_MS;

/** What `create` makes: two random 20-byte parts in lowercase base32 (32 characters each). */
const TOKEN_SHAPE = /^[a-z2-7]{32}\.[a-z2-7]{32}$/;

/**
 * Whether a token has the shape of one we issue. Anyone can send a made-up token on every
 * request, so one of any other shape is refused without a query.
 */
export function isSessionToken(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

export type ValidSession = {
  id: string;
  expiresAt: Date;
  user: SessionUser;
  extended: boolean;
  /** Password given, second factor not yet: only that step and logout may use it. */
  pendingTwoFactor: boolean;
  /** The account requires a second factor of every member and this person has none yet. */
  mustEnrolTwoFactor: boolean;
  /** Every account the person belongs to, with their role there (for the header's switch). */
  accounts: { accountId: string; role: Role }[];
};

type SessionRow = NonNullable<Awaited<ReturnType<AuthRepository["findSessionWithUser"]>>>;

/**
 * What a stored session stands for now, or null when it stands for nothing: expired, or its
 * person in no account any more. It acts in its account if the person is still a member
 * there, else in their first one (removed from an account, a session moves on). Pure.
 */
function sessionOf(row: SessionRow, at: Date): Omit<ValidSession, "extended"> | null {
  if (row.expiresAt.getTime() <= at.getTime()) return null;
  const memberships = row.user.memberships;
  const member = memberships.find((m) => m.accountId === row.accountId) ?? memberships[0] ?? null;
  if (!member) return null;
  const twoFactor = row.user.totpEnabledAt !== null;
  return {
    id: row.id,
    expiresAt: row.expiresAt,
    pendingTwoFactor: row.pendingTwoFactor,
    mustEnrolTwoFactor: member.account.requireTwoFactor && !twoFactor,
    user: {
      id: row.user.id,
      email: row.user.email,
      accountId: member.accountId,
      role: member.role,
      twoFactor,
    },
    accounts: memberships.map((m) => ({ accountId: m.accountId, role: m.role })),
  };
}

export function createSessionService(repo: AuthRepository, now: () => Date) {
  return {
    /**
     * A session acting in `accountId`; `pendingTwoFactor` when the person has a second factor
     * still to give.
     */
    async create(
      userId: string,
      accountId: string,
      pendingTwoFactor = false,
    ): Promise<{ token: string; expiresAt: Date }> {
      const id = randomToken();
      const secret = randomToken();
      const expiresAt = new Date(now().getTime() + SESSION_MS);
      await repo.createSession({
        id,
        secretHash: sha256Bytes(secret),
        userId,
        expiresAt,
        accountId,
        pendingTwoFactor,
      });
      return { token: `${id}.${secret}`, expiresAt };
    },

    /** The session behind a token, or null; extends it when past half its life. */
    async validate(token: string): Promise<ValidSession | null> {
      if (!isSessionToken(token)) return null;
      const [id = "", secret = ""] = token.split(".");
      const row = await repo.findSessionWithUser(id);
      if (!row) return null;
      if (!sameBytes(new Uint8Array(row.secretHash), sha256Bytes(secret))) return null;
      const at = now();
      const session = sessionOf(row, at);
      if (!session) {
        if (row.expiresAt.getTime() <= at.getTime()) await repo.deleteSession(id);
        return null;
      }
      let expiresAt = row.expiresAt;
      const extended = expiresAt.getTime() - at.getTime() < SESSION_MS / 2;
      if (extended) {
        expiresAt = new Date(at.getTime() + SESSION_MS);
        await repo.extendSession(id, expiresAt);
      }
      if (session.user.accountId !== row.accountId) {
        await repo.setSessionAccount(id, session.user.accountId);
      }
      return { ...session, expiresAt, extended };
    },

    /**
     * The sessions by these ids as they stand now, without touching them (no extension, no
     * move): for a holder of an already checked session asking whether it still holds (a live
     * stream). A session missing from the answer ended, or stands for nothing.
     */
    async current(ids: string[]): Promise<Map<string, ValidSession>> {
      const at = now();
      const found = new Map<string, ValidSession>();
      if (ids.length === 0) return found;
      for (const row of await repo.findSessionsWithUser(ids)) {
        const session = sessionOf(row, at);
        if (session) found.set(row.id, { ...session, extended: false });
      }
      return found;
    },

    /**
     * The person's accounts, named for the header's switch (no two alike: account-name.ts);
     * the current one marked.
     */
    async accounts(session: ValidSession) {
      const rows = await repo.accountsOf(session.user.id);
      const names = distinctNames(
        rows.map((row) => ({
          account_id: row.accountId,
          name: accountName(row.account),
          owner: row.account.members[0]?.user.email ?? null,
        })),
      );
      return rows.map((row, i) => ({
        account_id: row.accountId,
        name: names[i] ?? accountName(row.account),
        role: row.role,
        current: row.accountId === session.user.accountId,
      }));
    },

    /** Acts in another of the person's accounts from the next request on (and at next login). */
    async switchAccount(session: ValidSession, accountId: string): Promise<void> {
      if (!session.accounts.some((a) => a.accountId === accountId)) {
        throw new AppError("NOT_FOUND", "You are not a member of that account.");
      }
      await repo.setSessionAccount(session.id, accountId);
      await repo.setLastAccount(session.user.id, accountId);
    },

    /** The second factor was given: the session is whole. */
    completeTwoFactor(sessionId: string): Promise<unknown> {
      return repo.completeTwoFactor(sessionId);
    },

    async invalidate(sessionId: string): Promise<void> {
      await repo.deleteSession(sessionId);
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
