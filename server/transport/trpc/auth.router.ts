import { z } from "zod";
import {
  ZChangePassword,
  ZCredentials,
  ZEmailLink,
  ZForgotPassword,
  ZResetPassword,
  ZSignup,
} from "../../../shared/schemas/auth.ts";
import { ZTwoFactorVerified, ZVerifyTwoFactor } from "../../../shared/schemas/two-factor.ts";
import { ROLES } from "../../../shared/team/roles.ts";
import { protectedProcedure, publicProcedure, router } from "./init.ts";

const ZMessage = z.object({ message: z.string() });
const ZAccountChoice = z.object({
  account_id: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  current: z.boolean(),
});

export const authRouter = router({
  /**
   * The signed-in person, or null; `pendingTwoFactor` while their second factor is still to
   * give, `mustEnrolTwoFactor` when the account requires one they have not set up.
   */
  me: publicProcedure.query(({ ctx }) =>
    ctx.session
      ? {
          ...ctx.session.user,
          pendingTwoFactor: ctx.session.pendingTwoFactor,
          mustEnrolTwoFactor: ctx.session.mustEnrolTwoFactor,
        }
      : null,
  ),

  signup: publicProcedure
    .input(ZSignup)
    .output(ZMessage)
    .mutation(({ ctx, input }) => ctx.services.auth.signup(input, ctx.ip)),

  confirmEmail: publicProcedure
    .input(ZEmailLink)
    .output(ZMessage)
    .mutation(({ ctx, input }) => ctx.services.auth.confirmEmail(input)),

  login: publicProcedure.input(ZCredentials).mutation(async ({ ctx, input }) => {
    const { token, expiresAt, user, twoFactorRequired } = await ctx.services.auth.login(
      input,
      ctx.ip,
    );
    ctx.sessionCookie.set(token, expiresAt);
    return { user, twoFactorRequired };
  }),

  logout: publicProcedure.mutation(async ({ ctx }) => {
    if (ctx.session) await ctx.services.auth.logout(ctx.session.id);
    ctx.sessionCookie.clear();
    return { ok: true };
  }),

  requestPasswordReset: publicProcedure
    .input(ZForgotPassword)
    .output(ZMessage)
    .mutation(({ ctx, input }) => ctx.services.auth.requestPasswordReset(input.email, ctx.ip)),

  checkResetLink: publicProcedure
    .input(ZEmailLink)
    .output(z.object({ valid: z.boolean() }))
    .mutation(async ({ ctx, input }) => ({
      valid: await ctx.services.auth.checkResetLink(input),
    })),

  resetPassword: publicProcedure
    .input(ZResetPassword)
    .output(ZMessage)
    .mutation(async ({ ctx, input }) => {
      const result = await ctx.services.auth.resetPassword(input);
      ctx.sessionCookie.clear();
      return result;
    }),

  /** The accounts this person belongs to (the header's switch). */
  accounts: protectedProcedure
    .output(ZAccountChoice.array())
    .query(({ ctx }) => ctx.services.sessions.accounts(ctx.session)),

  /** Acts in another of this person's accounts from the next request on. */
  switchAccount: protectedProcedure
    .input(z.strictObject({ account_id: z.string().min(1).max(100) }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.sessions.switchAccount(ctx.session, input.account_id);
      return { ok: true as const };
    }),

  /** The sign-in's second step: a code from the authenticator app or a recovery code. */
  verifyTwoFactor: protectedProcedure
    .input(ZVerifyTwoFactor)
    .output(ZTwoFactorVerified)
    .mutation(({ ctx, input }) =>
      ctx.services.twoFactor.verifySignIn(ctx.session, input.code, ctx.ip),
    ),

  changePassword: protectedProcedure
    .input(ZChangePassword)
    .output(ZMessage)
    .mutation(({ ctx, input }) =>
      ctx.services.auth.changePassword(ctx.user.id, ctx.session.id, input),
    ),
});
