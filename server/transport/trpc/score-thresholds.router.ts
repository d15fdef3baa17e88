import {
  ZThresholdPreview,
  ZThresholdReset,
  ZThresholdsInput,
  ZThresholdsView,
} from "../../../shared/schemas/score-thresholds.ts";
import { protectedProcedure, router } from "./init.ts";

export const scoreThresholdsRouter = router({
  /** Each event type's thresholds in force, where they come from, and the account's own. */
  get: protectedProcedure
    .output(ZThresholdsView)
    .query(({ ctx }) => ctx.services.scoreThresholds.get(ctx.user.accountId)),

  /** Replaces the account's own thresholds; a type left out follows its templates. */
  put: protectedProcedure
    .input(ZThresholdsInput)
    .output(ZThresholdsView)
    .mutation(({ ctx, input }) => ctx.services.scoreThresholds.save(ctx.user.accountId, input)),

  /** Drops one type's own thresholds: its templates' defaults apply again. */
  reset: protectedProcedure
    .input(ZThresholdReset)
    .output(ZThresholdsView)
    .mutation(({ ctx, input }) => ctx.services.scoreThresholds.reset(ctx.user.accountId, input)),

  /** What the proposed own thresholds would have done over the last 30 days (nothing saved). */
  preview: protectedProcedure
    .input(ZThresholdsInput)
    .output(ZThresholdPreview)
    .mutation(({ ctx, input }) => ctx.services.scoreThresholds.preview(ctx.user.accountId, input)),
});
