import { z } from "zod";
import {
  ZChargeReviewDetail,
  ZReviewBulkInput,
  ZReviewCount,
  ZReviewPage,
  ZReviewQueueInput,
  ZReviewSettleInput,
  ZScreeningDetail,
  ZScreeningRef,
  ZScreeningSettleInput,
} from "../../../shared/schemas/review.ts";
import { apiKeyLabeller } from "../who.ts";
import { apiKeyProcedure, protectedProcedure, router } from "./init.ts";

/** The console's Review page. */
export const reviewRouter = router({
  queue: protectedProcedure
    .input(ZReviewQueueInput)
    .output(ZReviewPage)
    .query(({ ctx, input }) => ctx.services.review.queue(ctx.user.accountId, input)),

  count: protectedProcedure
    .output(ZReviewCount)
    .query(({ ctx }) => ctx.services.review.count(ctx.user.accountId)),

  settle: protectedProcedure
    .input(ZReviewSettleInput)
    .output(z.union([ZScreeningDetail, ZChargeReviewDetail]))
    .mutation(({ ctx, input: { id, kind, ...decision } }) =>
      kind === "charge"
        ? ctx.services.review.settleCharge(ctx.user.accountId, id, decision, ctx.user.email)
        : ctx.services.review.settle(ctx.user.accountId, id, decision, ctx.user.email),
    ),

  bulk: protectedProcedure
    .input(ZReviewBulkInput)
    .output(z.object({ settled: z.number().int() }))
    .mutation(({ ctx, input }) =>
      ctx.services.review.settleFiltered(
        ctx.user.accountId,
        input.filters,
        input.decision,
        input.note,
        ctx.user.email,
      ),
    ),

  detail: protectedProcedure
    .input(ZScreeningRef)
    .output(ZScreeningDetail)
    .query(({ ctx, input }) => ctx.services.review.detail(ctx.user.accountId, input.id)),
});

/** A merchant's backend with a secret key: GET /api/v1/screenings/{id} and its decision. */
export const screeningsApiRouter = router({
  get: apiKeyProcedure
    .input(ZScreeningRef)
    .output(ZScreeningDetail)
    .query(({ ctx, input }) => ctx.services.review.detail(ctx.caller.accountId, input.id)),

  decide: apiKeyProcedure
    .input(ZScreeningSettleInput)
    .output(ZScreeningDetail)
    .mutation(({ ctx, input: { id, ...decision } }) =>
      ctx.services.review.settle(
        ctx.caller.accountId,
        id,
        decision,
        apiKeyLabeller(ctx.caller).who,
      ),
    ),
});
