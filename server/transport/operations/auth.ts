/**
 * Signing in, one's own sign-in (password, accounts, the second factor) and the waitlist.
 * The console's session is a cookie; REST answers a token instead (POST /api/auth/login).
 */
import { z } from "zod";
import {
  ZAccountCreated,
  ZChangePassword,
  ZCreateAccount,
  ZCredentials,
  ZEmailLink,
  ZForgotPassword,
  ZResetPassword,
  ZSignup,
} from "../../../shared/schemas/auth.ts";
import { ZTwoFactorVerified, ZVerifyTwoFactor } from "../../../shared/schemas/two-factor.ts";
import { ZWaitlistJoin, ZWaitlistJoinResult } from "../../../shared/schemas/waitlist.ts";
import { ROLES } from "../../../shared/team/roles.ts";
import { op } from "../operation.ts";

const ZMessage = z.object({ message: z.string() });
const ZOk = z.object({ ok: z.literal(true) });
const ZAccountChoice = z.object({
  account_id: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  current: z.boolean(),
});
const ZLogin = z.object({
  token: z.string(),
  expiresAt: z.string(),
  /** The token does nothing but POST /api/auth/two-factor until the second factor is given. */
  twoFactorRequired: z.boolean(),
  user: z.object({ id: z.string(), email: z.string() }).loose(),
});

export const auth = {
  /**
   * The signed-in person, or null; `pendingTwoFactor` while their second factor is still to
   * give, `mustEnrolTwoFactor` when the account requires one they have not set up.
   */
  me: op({
    need: "public",
    kind: "query",
    handler: async ({ session }) =>
      session
        ? {
            ...session.user,
            pendingTwoFactor: session.pendingTwoFactor,
            mustEnrolTwoFactor: session.mustEnrolTwoFactor,
          }
        : null,
    rest: {
      method: "GET",
      path: "/me",
      tag: "auth",
      summary:
        "Who this token belongs to ({ user: null } for none: a script asks before it logs in)",
      response: z.unknown(),
      handler: async ({ session }) => ({ user: session?.user ?? null }),
    },
  }),
  signup: op({
    need: "public",
    kind: "mutation",
    input: ZSignup,
    output: ZMessage,
    handler: ({ services, ip }, input) => services.auth.signup(input, ip),
  }),
  confirmEmail: op({
    need: "public",
    kind: "mutation",
    input: ZEmailLink,
    output: ZMessage,
    handler: ({ services }, input) => services.auth.confirmEmail(input),
  }),
  login: op({
    need: "public",
    kind: "mutation",
    input: ZCredentials,
    handler: async ({ services, ip, sessionCookie }, input) => {
      const { token, expiresAt, user, twoFactorRequired } = await services.auth.login(input, ip);
      sessionCookie.set(token, expiresAt);
      return { user, twoFactorRequired };
    },
    // For scripts and other backends: the token itself, not a cookie.
    rest: {
      method: "POST",
      path: "/auth/login",
      tag: "auth",
      summary: "Exchange credentials for a bearer token, for scripts and other backends",
      response: ZLogin,
      errors: [429],
      handler: async ({ services, ip }, input) => {
        const { token, expiresAt, twoFactorRequired, user } = await services.auth.login(input, ip);
        return { token, expiresAt: expiresAt.toISOString(), twoFactorRequired, user };
      },
    },
  }),
  logout: op({
    need: "public",
    kind: "mutation",
    handler: async ({ services, session, sessionCookie }) => {
      if (session) await services.auth.logout(session.id);
      sessionCookie.clear();
      return { ok: true };
    },
    rest: {
      method: "POST",
      path: "/auth/logout",
      tag: "auth",
      summary: "End this token's session (without one, nothing to end)",
      response: z.unknown(),
    },
  }),
  requestPasswordReset: op({
    need: "public",
    kind: "mutation",
    input: ZForgotPassword,
    output: ZMessage,
    handler: ({ services, ip }, input) => services.auth.requestPasswordReset(input.email, ip),
  }),
  checkResetLink: op({
    need: "public",
    kind: "mutation",
    input: ZEmailLink,
    output: z.object({ valid: z.boolean() }),
    handler: async ({ services }, input) => ({ valid: await services.auth.checkResetLink(input) }),
  }),
  resetPassword: op({
    need: "public",
    kind: "mutation",
    input: ZResetPassword,
    output: ZMessage,
    handler: async ({ services, sessionCookie }, input) => {
      const result = await services.auth.resetPassword(input);
      sessionCookie.clear();
      return result;
    },
  }),
  /** The accounts this person belongs to (the header's switch). */
  accounts: op({
    need: "self",
    kind: "query",
    output: ZAccountChoice.array(),
    handler: ({ services, session }) => services.sessions.accounts(session),
  }),
  /** Acts in another of this person's accounts from the next request on. */
  switchAccount: op({
    need: "self",
    audit: true,
    // Written in the account entered, naming it: the one a person reads to see who came in.
    target: (input: { account_id?: string }) => input?.account_id,
    auditIn: (input: { account_id?: string }) => input?.account_id,
    kind: "mutation",
    input: z.strictObject({ account_id: z.string().min(1).max(100) }),
    output: ZOk,
    handler: async ({ services, session }, input) => {
      await services.sessions.switchAccount(session, input.account_id);
      return { ok: true as const };
    },
  }),
  /** Starts an account of this person's own, and acts in it (audited in the new account). */
  createAccount: op({
    need: "self",
    kind: "mutation",
    input: ZCreateAccount,
    output: ZAccountCreated,
    handler: ({ services, session, ip }, input) =>
      services.auth.createAccount(
        { id: session.id, userId: session.user.id, email: session.user.email },
        input.name,
        ip,
      ),
  }),
  /** The sign-in's second step: a code from the authenticator app or a recovery code. */
  verifyTwoFactor: op({
    need: "signingIn",
    kind: "mutation",
    input: ZVerifyTwoFactor,
    output: ZTwoFactorVerified,
    handler: ({ services, session, ip }, input) =>
      services.twoFactor.verifySignIn(session, input.code, ip),
    rest: {
      method: "POST",
      path: "/auth/two-factor",
      tag: "auth",
      summary:
        "The sign-in's second step: after a login that answered twoFactorRequired, send the 6-digit code from the authenticator app (or a recovery code) with the same token",
      errors: [429],
      examples: { body: { code: "123456" }, response: { ok: true, method: "totp" } },
    },
  }),
  changePassword: op({
    need: "self",
    audit: true,
    kind: "mutation",
    input: ZChangePassword,
    output: ZMessage,
    handler: ({ services, session }, input) =>
      services.auth.changePassword(session.user.id, session.id, input),
  }),
};

export const waitlist = {
  join: op({
    need: "public",
    kind: "mutation",
    input: ZWaitlistJoin,
    output: ZWaitlistJoinResult,
    handler: ({ services, ip }, input) => services.waitlist.join(input, ip),
  }),
  links: op({
    need: "public",
    kind: "query",
    output: z.object({ socialUrl: z.string() }),
    handler: ({ services }) => services.waitlist.links(),
  }),
};
