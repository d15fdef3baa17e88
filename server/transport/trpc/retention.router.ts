/**
 * Settings → Data retention: each kind's days, defaults, limits and what a setting breaks;
 * an owner changes any subset (transport/access.ts: retention.put needs `own`).
 */
import { ZRetentionSettings, ZRetentionView } from "../../../shared/schemas/retention.ts";
import { protectedProcedure, router } from "./init.ts";

export const retentionRouter = router({
  get: protectedProcedure
    .output(ZRetentionView)
    .query(({ ctx }) => ctx.services.retention.get(ctx.user.accountId)),

  put: protectedProcedure
    .input(ZRetentionSettings)
    .output(ZRetentionView)
    .mutation(({ ctx, input }) => ctx.services.retention.put(ctx.user.accountId, input)),
});
