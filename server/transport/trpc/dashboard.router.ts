import {
  ZDashboardListInput,
  ZDashboardPage,
  ZDashboardSummary,
} from "../../../shared/schemas/transaction.ts";
import { protectedProcedure, router } from "./init.ts";

export const dashboardRouter = router({
  /** One page of the account's charges, newest first; pass nextCursor back for the next. */
  list: protectedProcedure
    .input(ZDashboardListInput)
    .output(ZDashboardPage)
    .query(({ ctx, input }) => ctx.services.transactions.list(ctx.user.accountId, input)),

  /** Totals and charges per day over the last 30 days. */
  summary: protectedProcedure
    .output(ZDashboardSummary)
    .query(({ ctx }) => ctx.services.transactions.summary(ctx.user.accountId)),
});
