/**
 * How many screenings are labelled, said the same on Risk score and on Test on history: one
 * count on the server (labels.counts, scoring/label-verdicts.ts), the newest word on each
 * screening (a label or a review decision, else Stripe's for a checkout).
 */
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc.ts";

export function LabelCount() {
  const trpc = useTRPC();
  const counts = useQuery(trpc.labels.counts.queryOptions(undefined, { staleTime: 0 }));
  if (!counts.data) return null;
  const { fraud, legitimate } = counts.data;
  return (
    <p className="config-note" data-label-count>
      Labelled screenings: <strong>{fraud.toLocaleString("en-US")} fraud</strong> and{" "}
      <strong>{legitimate.toLocaleString("en-US")} legitimate</strong> (by label, review decision or
      Stripe dispute; the newest word on each counts).
    </p>
  );
}
