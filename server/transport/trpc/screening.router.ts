import { ZDecisionsPerMinute } from "../../../shared/schemas/live.ts";
import {
  ZScreenInput,
  ZScreeningCounts,
  ZScreeningListInput,
  ZScreeningPage,
  ZScreenResult,
} from "../../../shared/schemas/screening.ts";
import { apiKeyProcedure, protectedProcedure, router } from "./init.ts";

/** For a merchant's backend holding a secret API key (the typed client calls this). */
export const screeningRouter = router({
  screen: apiKeyProcedure
    .input(ZScreenInput)
    .output(ZScreenResult)
    .mutation(({ ctx, input }) => ctx.services.screening.screen(ctx.caller.accountId, input)),
});

/** The console's Screenings page. */
export const screeningsRouter = router({
  list: protectedProcedure
    .input(ZScreeningListInput)
    .output(ZScreeningPage)
    .query(({ ctx, input }) => ctx.services.screeningHistory.list(ctx.user.accountId, input)),

  counts: protectedProcedure
    .output(ZScreeningCounts)
    .query(({ ctx }) => ctx.services.screeningHistory.counts(ctx.user.accountId)),

  /** The dashboard's chart: decisions per minute over the last hour. */
  perMinute: protectedProcedure
    .output(ZDecisionsPerMinute)
    .query(({ ctx }) => ctx.services.perMinute.lastHour(ctx.user.accountId)),
});
