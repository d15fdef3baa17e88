import { ZBacktestInput, ZBacktestJob } from "../../../shared/schemas/backtest.ts";
import { protectedProcedure, router } from "./init.ts";

export const backtestRouter = router({
  /** Starts "Test on history" with the page's settings, or returns the one already running. */
  start: protectedProcedure
    .input(ZBacktestInput)
    .output(ZBacktestJob)
    .mutation(({ ctx, input }) => ctx.services.backtest.start(ctx.user.accountId, input)),

  /** The latest backtest: progress while it runs, the result when done. */
  status: protectedProcedure
    .output(ZBacktestJob)
    .query(({ ctx }) => ctx.services.backtest.report(ctx.user.accountId)),

  cancel: protectedProcedure
    .output(ZBacktestJob)
    .mutation(({ ctx }) => ctx.services.backtest.cancel(ctx.user.accountId)),
});
