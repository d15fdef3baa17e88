/**
 * Sessions as Lucia's guide describes them: the token is "<id>.<secret>", the database keeps
 * only SHA-256(secret), the check is constant-time, and a session used in its second half
 * is extended to a fresh 30 days.
 */
import type { SessionUser } from "../../../shared/schemas/auth.ts";
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

export type ValidSession = { id: string; expiresAt: Date; user: SessionUser; extended: boolean };

export function createSessionService(repo: AuthRepository, now: () => Date) {
  return {
    async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
      const id = randomToken();
      const secret = randomToken();
      const expiresAt = new Date(now().getTime() + SESSION_MS);
      await repo.createSession({ id, secretHash: sha256Bytes(secret), userId, expiresAt });
      return { token: `${id}.${secret}`, expiresAt };
    },

    /** The session behind a token, or null; extends it when past half its life. */
    async validate(token: string): Promise<ValidSession | null> {
      if (!isSessionToken(token)) return null;
      const [id = "", secret = ""] = token.split(".");
      const row = await repo.findSessionWithUser(id);
      if (!row) return null;
      if (!sameBytes(new Uint8Array(row.secretHash), sha256Bytes(secret))) return null;
      const current = now().getTime();
      if (row.expiresAt.getTime() <= current) {
        await repo.deleteSession(id);
        return null;
      }
      let expiresAt = row.expiresAt;
      const extended = expiresAt.getTime() - current < SESSION_MS / 2;
      if (extended) {
        expiresAt = new Date(current + SESSION_MS);
        await repo.extendSession(id, expiresAt);
      }
      return { id, expiresAt, user: row.user, extended };
    },

    async invalidate(sessionId: string): Promise<void> {
      await repo.deleteSession(sessionId);
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
