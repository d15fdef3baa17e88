/**
 * Settling review items: approve or deny one screening or charge (with who, when and a note),
 * or every open item that matches the filters, in batches. Each settle stores its decision
 * events in its own transaction, then tells the webhooks worker and, for a single item, the
 * allow list ("always allow this user").
 */
import {
  type ReviewDecisionInput,
  type ReviewFilters,
  type ReviewKind,
  ZReviewDecisionInput,
  ZReviewFilters,
} from "../../../shared/schemas/review.ts";
import { AppError } from "../../lib/app-error.ts";
import { kindsOf } from "./queue-order.ts";
import type { SettleEvents } from "./review.repository.ts";
import type { ReviewDeps, Settled } from "./review.types.ts";
import { queueFilters } from "./review-queue.ts";

/** Items a bulk action settles per statement. */
const BULK_BATCH = 1000;

const STATUS = { approve: "approved", deny: "denied" } as const;

export function createReviewSettle({
  repo,
  charges,
  now,
  eventOf,
  eventsStored,
  settledIn,
  onSettled,
}: Omit<ReviewDeps, "labels" | "digestKeyOf" | "links">) {
  /** The events of a settle's rows, stored with them. */
  const eventsOf =
    (kind: ReviewKind, status: Settled["status"], by: string): SettleEvents =>
    (rows) =>
      eventOf ? rows.map((row) => eventOf({ ...row, kind, status }, by)) : [];

  return {
    /** Approves or denies one open screening; CONFLICT if it was settled already. */
    async screening(accountId: string, id: string, raw: ReviewDecisionInput, by: string) {
      const input = ZReviewDecisionInput.parse(raw);
      const status = STATUS[input.decision];
      const settled = await repo.settle(
        accountId,
        id,
        { status, at: now(), by, note: input.note || null },
        eventsOf("screening", status, by),
      );
      if (!settled) {
        const row = await repo.find(accountId, id);
        if (!row) throw new AppError("NOT_FOUND", "No such screening in this account.");
        if (row.decision !== "review") {
          throw new AppError(
            "CONFLICT",
            `Screening ${id} was answered ${row.decision}, not review.`,
          );
        }
        throw new AppError(
          "CONFLICT",
          `Screening ${id} was already ${row.reviewStatus} by ${row.reviewedBy} at ${row.reviewedAt?.toISOString()}.`,
        );
      }
      eventsStored?.();
      settledIn?.(accountId);
      await onSettled?.(
        accountId,
        { ...settled, kind: "screening", status },
        {
          alwaysAllow: status === "approved" && Boolean(input.always_allow),
          by,
        },
      );
    },

    /** Approves or denies one open charge; CONFLICT if it was settled already. */
    async charge(accountId: string, chargeId: string, raw: ReviewDecisionInput, by: string) {
      const input = ZReviewDecisionInput.parse(raw);
      const status = STATUS[input.decision];
      const settled = await charges.settle(
        accountId,
        chargeId,
        { status, at: now(), by, note: input.note || null },
        eventsOf("charge", status, by),
      );
      if (!settled) {
        const row = await charges.find(accountId, chargeId);
        if (!row) throw new AppError("NOT_FOUND", "No such charge in this account.");
        if (!row.reviewStatus) {
          throw new AppError("CONFLICT", `Charge ${chargeId} was not sent to review.`);
        }
        throw new AppError(
          "CONFLICT",
          `Charge ${chargeId} was already ${row.reviewStatus} by ${row.reviewedBy} at ${row.reviewedAt?.toISOString()}.`,
        );
      }
      eventsStored?.();
      settledIn?.(accountId);
      await onSettled?.(
        accountId,
        { ...settled, kind: "charge", status },
        { alwaysAllow: status === "approved" && Boolean(input.always_allow), by },
      );
    },

    /** Settles every open item that matches the filters; returns how many. */
    async filtered(
      accountId: string,
      rawFilters: ReviewFilters,
      decision: "approve" | "deny",
      note: string | undefined,
      by: string,
    ): Promise<{ settled: number }> {
      const parsed = ZReviewFilters.parse(rawFilters);
      const filters = queueFilters(parsed, now());
      const kinds = kindsOf(parsed);
      const s = { status: STATUS[decision], at: now(), by, note: note || null };
      const tables = [
        ...(kinds.screening ? [{ kind: "screening" as const, settleMany: repo.settleMany }] : []),
        ...(kinds.charge ? [{ kind: "charge" as const, settleMany: charges.settleMany }] : []),
      ];
      let settled = 0;
      for (const table of tables) {
        for (;;) {
          const rows = await table.settleMany(
            accountId,
            filters,
            BULK_BATCH,
            s,
            eventsOf(table.kind, s.status, by),
          );
          settled += rows.length;
          if (rows.length > 0) eventsStored?.();
          if (rows.length > 0) settledIn?.(accountId);
          if (rows.length < BULK_BATCH) break;
        }
      }
      return { settled };
    },
  };
}
