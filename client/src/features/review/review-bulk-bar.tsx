/** Settles every open item that matches the filters, beside the queue. */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { ReviewFilters } from "../../../../shared/schemas/review.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { useInvalidateQueue } from "./use-invalidate-queue.ts";

/** Settles every open item that matches the filters (not only the ones loaded). */
export function BulkBar({
  filters,
  shown,
  more,
  beforeRun,
}: {
  filters: ReviewFilters;
  shown: number;
  more: boolean;
  /** Sends the one settle still in its undo window first, so the two cannot collide. */
  beforeRun(): Promise<void>;
}) {
  const trpc = useTRPC();
  const invalidate = useInvalidateQueue();
  const [done, setDone] = useState<string | null>(null);
  const bulk = useMutation(
    trpc.review.bulk.mutationOptions({
      onSuccess: (result, input) => {
        setDone(`${input.decision === "approve" ? "Approved" : "Denied"} ${result.settled}.`);
        return invalidate();
      },
    }),
  );
  const what = more ? `all ${shown}+ matching` : `all ${shown} matching`;
  const run = async (decision: "approve" | "deny") => {
    if (window.confirm(`${decision === "approve" ? "Approve" : "Deny"} ${what} items?`)) {
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
          disabled={bulk.isPending}
          onClick={() => void run(decision)}
        >
          {decision === "approve" ? "Approve all" : "Deny all"}
        </button>
      ))}
      <span role="status">{bulk.isError ? errorMessage(bulk.error) : done}</span>
    </fieldset>
  );
}
