/**
 * One reviewed item as the console and GET /api/v1/screenings/{id} show it: a screening with
 * its answer, review state, labels and linked accounts (decision 023: the summary stored when
 * it was screened, and the accounts as read now), or a charge with its review state, reasons
 * and labels.
 */
import type { ChargeReviewDetail, ScreeningDetail } from "../../../shared/schemas/review.ts";
import type { Screening } from "../../db/generated/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { storedSummary } from "../links/links.service.ts";
import { consumerAddress, screeningRowOf } from "../screening/screening-history.service.ts";
import type { ReviewDeps } from "./review.types.ts";
import { linkProbes, subjectOf } from "./shared-identities.ts";

export function createReviewDetail({
  repo,
  charges,
  labels,
  links,
  digestKeyOf,
}: Pick<ReviewDeps, "repo" | "charges" | "labels" | "links" | "digestKeyOf">) {
  /** The accounts linked to a stored screening through its own identities. */
  function linkedTo(accountId: string, row: Screening) {
    const key = digestKeyOf(accountId);
    return links.accounts(accountId, {
      screeningId: row.id,
      at: row.createdAt,
      probes: linkProbes(row, key, consumerAddress),
      self: subjectOf(row, key),
      key,
    });
  }

  return {
    async screening(accountId: string, id: string): Promise<ScreeningDetail> {
      const row = await repo.find(accountId, id);
      if (!row) throw new AppError("NOT_FOUND", "No such screening in this account.");
      const [history, linked] = await Promise.all([
        labels.history(accountId, { subject_kind: "screening", subject_id: id }),
        linkedTo(accountId, row),
      ]);
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
        linked: storedSummary(row.linked),
        linked_accounts: linked.accounts,
        linked_hubs: linked.hubs,
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
