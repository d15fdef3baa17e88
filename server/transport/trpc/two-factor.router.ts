/** A member's own second factor: enrol a TOTP app, recovery codes, turn it off. */
import { z } from "zod";
import {
  ZRecoveryCodes,
  ZTwoFactorBegin,
  ZTwoFactorConfirm,
  ZTwoFactorDisable,
  ZTwoFactorEnrolment,
  ZTwoFactorRegenerate,
  ZTwoFactorStatus,
} from "../../../shared/schemas/two-factor.ts";
import { protectedProcedure, router } from "./init.ts";

export const twoFactorRouter = router({
  status: protectedProcedure
    .output(ZTwoFactorStatus)
    .query(({ ctx }) => ctx.services.twoFactor.status(ctx.user)),

  /** A new secret to add to an authenticator app (base32, otpauth:// URI and QR code). */
  begin: protectedProcedure
    .input(ZTwoFactorBegin)
    .output(ZTwoFactorEnrolment)
    .mutation(({ ctx, input }) => ctx.services.twoFactor.begin(ctx.user, input)),

  /** Turns it on with a code from the app; answers the recovery codes, shown this once. */
  confirm: protectedProcedure
    .input(ZTwoFactorConfirm)
    .output(ZRecoveryCodes)
    .mutation(({ ctx, input }) => ctx.services.twoFactor.confirm(ctx.user, input.code, ctx.ip)),

  disable: protectedProcedure
    .input(ZTwoFactorDisable)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(({ ctx, input }) => ctx.services.twoFactor.disable(ctx.user, input, ctx.ip)),

  regenerateCodes: protectedProcedure
    .input(ZTwoFactorRegenerate)
    .output(ZRecoveryCodes)
    .mutation(({ ctx, input }) =>
      ctx.services.twoFactor.regenerateCodes(ctx.user, input.code, ctx.ip),
    ),
});
