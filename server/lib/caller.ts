/**
 * Who is calling, the same for every transport: a console session (cookie, or its token as a
 * bearer) or a merchant's backend holding an API key. Procedures check `via`, never headers.
 */
import type { SessionUser } from "../../shared/schemas/auth.ts";
import type { Role } from "../../shared/team/roles.ts";
import { AppError } from "./app-error.ts";

export type Caller = {
  accountId: string;
  /** The console user, for session callers. */
  userId?: string;
  /** The console user's email and role in `accountId`, for session callers. */
  email?: string;
  role?: Role;
  via: "session" | "apiKey";
  /** For API-key callers: which key, and whether it may screen (secret) or only collect. */
  key?: { id: string; kind: "secret" | "publishable" };
};

export function sessionCaller(session: { user: SessionUser }): Caller {
  const { accountId, id, email, role } = session.user;
  return { accountId, userId: id, email, role, via: "session" };
}

/**
 * A merchant's backend holding a secret API key, or the error its call gets: 403 for a
 * publishable key (it can only collect), 401 for anything else (no key, an unknown or revoked
 * one, a console session). The tRPC procedures and the REST routes both check with this.
 */
export function secretKeyCaller(caller: Caller | null): Caller {
  if (caller?.via === "apiKey" && caller.key?.kind === "publishable") {
    throw new AppError(
      "FORBIDDEN",
      "This is a publishable key (wdn_pk_…): it can only collect in the browser. Screen with a secret key (wdn_sk_…) from your backend.",
    );
  }
  if (caller?.via !== "apiKey" || caller.key?.kind !== "secret") {
    throw new AppError(
      "UNAUTHORIZED",
      "A valid API key is required: send it as Authorization: Bearer <key>.",
    );
  }
  return caller;
}
