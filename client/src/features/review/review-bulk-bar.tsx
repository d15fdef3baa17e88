/**
 * Settles every open item that matches the filters, beside the queue. The confirmation names
 * the exact number (review.matching counts them on the server, not the pages loaded) and the
 * page says how many were settled; a role that may not review sees the buttons off, with why.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { REVIEW_COUNT_CAP, type ReviewFilters } from "../../../../shared/schemas/review.ts";
import { RoleNote, useRoleReason } from "../../components/editable.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { bulkSettledSentence } from "./review-format.ts";
import { useInvalidateQueue } from "./use-invalidate-queue.ts";

/** Settles every open item that matches the filters (not only the ones loaded). */
export function BulkBar({
  filters,
  shown,
  beforeRun,
  onDone,
}: {
  filters: ReviewFilters;
  shown: number;
  /** Sends the one settle still in its undo window first, so the two cannot collide. */
  beforeRun(): Promise<void>;
  /** What was done ("Denied 50."), said by the page: the bar leaves with the last item. */
  onDone(text: string): void;
}) {
  const trpc = useTRPC();
  const invalidate = useInvalidateQueue();
  const reason = useRoleReason("review");
  const matching = useQuery(trpc.review.matching.queryOptions(filters, { staleTime: 0 }));
  const bulk = useMutation(
    trpc.review.bulk.mutationOptions({
      onSuccess: (result, input) => {
        onDone(bulkSettledSentence(input.decision, result.settled));
        return invalidate();
      },
    }),
  );
  const count = matching.data
    ? `${matching.data.open.toLocaleString("en-US")}${matching.data.capped ? "+" : ""}`
    : String(shown);
  const what = `all ${count} matching`;
  const run = async (decision: "approve" | "deny") => {
    // The number asked about is the server's now, not the one shown a while ago.
    const fresh = (await matching.refetch()).data;
    const n = fresh
      ? `${fresh.open.toLocaleString("en-US")}${fresh.capped ? ` (at least ${REVIEW_COUNT_CAP})` : ""}`
      : count;
    const verb = decision === "approve" ? "Approve" : "Deny";
    if (window.confirm(`${verb} all ${n} matching ${fresh?.open === 1 ? "item" : "items"}?`)) {
      await beforeRun();
      bulk.mutate({ filters, decision });
    }
  };
  return (
    <fieldset className="rv-bulk" aria-label="Bulk action">
      <span>For {what}:</span>
      {(["approve", "deny"] as const).map((decision) => (
        <button
          key={decision}
          type="button"
          className="secondary"
          disabled={bulk.isPending || reason !== null}
          title={reason ?? undefined}
          aria-describedby={reason ? "rv-bulk-role" : undefined}
          onClick={() => void run(decision)}
        >
          {decision === "approve" ? "Approve all" : "Deny all"}
        </button>
      ))}
      <RoleNote id="rv-bulk-role" reason={reason} />
      {bulk.isError && <span role="alert">{errorMessage(bulk.error)}</span>}
    </fieldset>
  );
}
