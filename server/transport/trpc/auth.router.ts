import { z } from "zod";
import {
  ZChangePassword,
  ZCredentials,
  ZEmailLink,
  ZForgotPassword,
  ZResetPassword,
  ZSignup,
} from "../../../shared/schemas/auth.ts";
import { protectedProcedure, publicProcedure, router } from "./init.ts";

const ZMessage = z.object({ message: z.string() });

export const authRouter = router({
  me: publicProcedure.query(({ ctx }) => ctx.session?.user ?? null),

  signup: publicProcedure
    .input(ZSignup)
    .output(ZMessage)
    .mutation(({ ctx, input }) => ctx.services.auth.signup(input, ctx.ip)),

  confirmEmail: publicProcedure
    .input(ZEmailLink)
    .output(ZMessage)
    .mutation(({ ctx, input }) => ctx.services.auth.confirmEmail(input)),

  login: publicProcedure.input(ZCredentials).mutation(async ({ ctx, input }) => {
    const { token, expiresAt, user } = await ctx.services.auth.login(input, ctx.ip);
    ctx.sessionCookie.set(token, expiresAt);
    return { user };
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

  changePassword: protectedProcedure
    .input(ZChangePassword)
    .output(ZMessage)
    .mutation(({ ctx, input }) =>
      ctx.services.auth.changePassword(ctx.user.id, ctx.session.id, input),
    ),
});
