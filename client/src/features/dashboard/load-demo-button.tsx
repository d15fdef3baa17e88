import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";

/**
 * Sends Warden's signed sample events through this account's real webhook path, so a
 * newcomer sees the dashboard and the rules at work without a Stripe account.
 */
export function LoadDemoButton() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const load = useMutation(
    trpc.stripe.loadDemo.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.pathKey() }),
    }),
  );
  return (
    <div className="tx-demo">
      <button type="button" disabled={load.isPending} onClick={() => load.mutate()}>
        {load.isPending ? "Loading demo data…" : "Load demo data"}
      </button>
      <small>Sends a bundle of realistic sample Stripe events through your webhook URL.</small>
      {load.isError && (
        <p className="message error" role="alert">
          Could not load demo data: {errorMessage(load.error)}
        </p>
      )}
    </div>
  );
}
