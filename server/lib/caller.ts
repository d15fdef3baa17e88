/**
 * Who is calling, the same for every transport: a console session (cookie, or its token as a
 * bearer) or a merchant's backend holding an API key. Procedures check `via`, never headers.
 */
export type Caller = {
  accountId: string;
  /** The console user, for session callers. */
  userId?: string;
  via: "session" | "apiKey";
  /** For API-key callers: which key, and whether it may screen (secret) or only collect. */
  key?: { id: string; kind: "secret" | "publishable" };
};

export function sessionCaller(session: { user: { id: string; accountId: string } }): Caller {
  return { accountId: session.user.accountId, userId: session.user.id, via: "session" };
}
