import {
  ZAllowedOriginsInput,
  ZAllowedOriginsView,
  ZAllowOriginInput,
} from "../../../shared/schemas/allowed-origins.ts";
import { protectedProcedure, router } from "./init.ts";

/** The merchant's allowed origins (Settings → API keys) and the origins refused lately. */
export const allowedOriginsRouter = router({
  get: protectedProcedure
    .output(ZAllowedOriginsView)
    .query(({ ctx }) => ctx.services.origins.view(ctx.user.accountId)),

  set: protectedProcedure
    .input(ZAllowedOriginsInput)
    .output(ZAllowedOriginsView)
    .mutation(({ ctx, input }) => ctx.services.origins.set(ctx.user.accountId, input.origins)),

  allow: protectedProcedure
    .input(ZAllowOriginInput)
    .output(ZAllowedOriginsView)
    .mutation(({ ctx, input }) => ctx.services.origins.allow(ctx.user.accountId, input.origin)),
});
