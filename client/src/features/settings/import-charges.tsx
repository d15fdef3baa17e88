/** "Import past charges": starts a history import and shows its progress until it ends. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorMessage } from "../../components/error-message.tsx";
import { useTRPC } from "../../lib/trpc.ts";

export function ImportCharges() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [days, setDays] = useState(90);
  const status = useQuery(
    trpc.stripe.importStatus.queryOptions(undefined, {
      refetchInterval: (query) => (query.state.data?.status === "running" ? 1000 : false),
    }),
  );
  const start = useMutation(
    trpc.stripe.startImport.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.stripe.importStatus.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.dashboard.pathKey() });
      },
    }),
  );
  const job = status.data;
  const running = job?.status === "running";

  return (
    <section className="stack panel" aria-labelledby="import-title">
      <h2 id="import-title">Import past charges</h2>
      <p>
        Brings in charges from your Stripe account, recorded as webhooks would record them. Past
        charges are never refunded by the rules. Running it again changes nothing.
      </p>
      <label>
        Days of history
        <input
          type="number"
          min={1}
          max={365}
          value={days}
          disabled={running || start.isPending}
          onChange={(e) => setDays(Math.min(365, Math.max(1, Number(e.target.value) || 1)))}
        />
      </label>
      <button
        type="button"
        disabled={running || start.isPending}
        onClick={() => start.mutate({ days })}
      >
        {running ? "Importing..." : "Import past charges"}
      </button>
      {job && (
        <div role="status" aria-live="polite">
          <progress max={100} value={job.progress} aria-label="Import progress" />{" "}
          {job.status === "running" && `${job.progress}% — ${job.imported} charges so far`}
          {job.status === "done" &&
            `Imported ${job.imported} charges from the last ${job.days} days.`}
          {job.status === "failed" && (
            <span className="message error">Import failed: {job.error}</span>
          )}
        </div>
      )}
      <ErrorMessage error={start.error} />
    </section>
  );
}
