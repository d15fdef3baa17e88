import {
  ZAdoptModel,
  ZScoreModels,
  ZScoreModelView,
} from "../../../shared/schemas/score-models.ts";
import { protectedProcedure, router } from "./init.ts";

/** The console: a merchant's own risk-score weights, proposed from its labels, adopted by a member. */
export const scoreModelsRouter = router({
  list: protectedProcedure
    .output(ZScoreModels)
    .query(({ ctx }) => ctx.services.scoreModels.list(ctx.user.accountId)),

  /** Fits weights on the account's labels and stores them with their backtest; adopts nothing. */
  propose: protectedProcedure
    .output(ZScoreModelView)
    .mutation(({ ctx }) => ctx.services.scoreModels.propose(ctx.user.accountId, ctx.user.email)),

  /** Each of the version's warnings must be in `confirm`. */
  adopt: protectedProcedure
    .input(ZAdoptModel)
    .output(ZScoreModels)
    .mutation(({ ctx, input }) =>
      ctx.services.scoreModels.adopt(ctx.user.accountId, input, ctx.user.email),
    ),

  rollback: protectedProcedure
    .output(ZScoreModels)
    .mutation(({ ctx }) => ctx.services.scoreModels.rollback(ctx.user.accountId)),
});
