/**
 * One reviewed item as the console and GET /api/v1/screenings/{id} show it: a screening with
 * its answer, review state and labels, or a charge with its review state, reasons and labels.
 */
import type { ChargeReviewDetail, ScreeningDetail } from "../../../shared/schemas/review.ts";
import { AppError } from "../../lib/app-error.ts";
import { screeningRowOf } from "../screening/screening-history.service.ts";
import type { ReviewDeps } from "./review.types.ts";

export function createReviewDetail({
  repo,
  charges,
  labels,
}: Pick<ReviewDeps, "repo" | "charges" | "labels">) {
  return {
    async screening(accountId: string, id: string): Promise<ScreeningDetail> {
      const row = await repo.find(accountId, id);
      if (!row) throw new AppError("NOT_FOUND", "No such screening in this account.");
      const history = await labels.history(accountId, {
        subject_kind: "screening",
        subject_id: id,
      });
      return {
        ...screeningRowOf(row),
        review:
          row.decision === "review"
            ? {
                status: (row.reviewStatus ?? "open") as "open" | "approved" | "denied",
                at: row.reviewedAt?.toISOString() ?? null,
                by: row.reviewedBy,
                note: row.reviewNote,
              }
            : null,
        labels: history,
      };
    },

    async charge(accountId: string, chargeId: string): Promise<ChargeReviewDetail> {
      const row = await charges.find(accountId, chargeId);
      if (!row) throw new AppError("NOT_FOUND", "No such charge in this account.");
      return {
        kind: "charge",
        id: row.chargeId,
        email: row.email,
        reasons: (row.reviewReasons ?? []) as ChargeReviewDetail["reasons"],
        review: {
          status: (row.reviewStatus ?? "open") as ChargeReviewDetail["review"]["status"],
          at: row.reviewedAt?.toISOString() ?? null,
          by: row.reviewedBy,
          note: row.reviewNote,
        },
        labels: await labels.history(accountId, { subject_kind: "charge", subject_id: chargeId }),
      };
    },
  };
}
