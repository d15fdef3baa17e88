/**
 * The review queue's use cases: list open items, screenings and charges, oldest first (with
 * the identities they share with earlier events), count them for the console shell, settle
 * one or a filtered set (approve / deny, with who, when and a note), and read one screening
 * with its review state and labels (GET /api/v1/screenings/{id}). Listing and counting are
 * review-queue.ts, settling review-settle.ts, reading one item review-detail.ts.
 */
import type {
  ChargeReviewDetail,
  ReviewDecisionInput,
  ScreeningDetail,
} from "../../../shared/schemas/review.ts";
import type { ReviewDeps } from "./review.types.ts";
import { createReviewDetail } from "./review-detail.ts";
import { createReviewQueue } from "./review-queue.ts";
import { createReviewSettle } from "./review-settle.ts";

export type { Settled } from "./review.types.ts";

export function createReviewService(deps: ReviewDeps) {
  const queue = createReviewQueue(deps);
  const settle = createReviewSettle(deps);
  const detail = createReviewDetail(deps);
  return {
    queue: queue.queue,

    count: queue.count,

    /** Approves or denies one open item; CONFLICT if it was settled already. */
    async settle(
      accountId: string,
      id: string,
      raw: ReviewDecisionInput,
      by: string,
    ): Promise<ScreeningDetail> {
      await settle.screening(accountId, id, raw, by);
      return detail.screening(accountId, id);
    },

    /** Approves or denies one open charge; CONFLICT if it was settled already. */
    async settleCharge(
      accountId: string,
      chargeId: string,
      raw: ReviewDecisionInput,
      by: string,
    ): Promise<ChargeReviewDetail> {
      await settle.charge(accountId, chargeId, raw, by);
      return detail.charge(accountId, chargeId);
    },

    /** Settles every open item that matches the filters; returns how many. */
    settleFiltered: settle.filtered,

    detail: detail.screening,

    /** A charge's review state, reasons and labels. */
    chargeDetail: detail.charge,
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
