import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { DemoRemoved } from "../../../../shared/schemas/demo.ts";
import { RoleNote, useRoleReason } from "../../components/editable.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import "./demo-data.css";

/** After the demo is loaded or removed: the pages that show its rows and the settings it changes. */
export function useDemoRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    for (const queryKey of [
      trpc.dashboard.pathKey(),
      trpc.stripe.demoPreview.queryKey(),
      trpc.rules.pathKey(),
      trpc.blocklist.pathKey(),
      trpc.ruleSettings.pathKey(),
      trpc.review.pathKey(),
    ]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  };
}

const listed = (items: { label: string }[]) => items.map((item) => item.label).join(", ");

/** What removing did, one line each. */
export function removedText(result: DemoRemoved): string[] {
  const { removed, restored, left } = result;
  const lines = [
    `Removed ${removed.charges} demo charges${removed.reviews > 0 ? ` (${removed.reviews} with a review)` : ""}, ${removed.labels} labels and ${removed.stripeEvents} Stripe events.`,
  ];
  if (restored.rules.length > 0) lines.push(`Turned off again: ${listed(restored.rules)}.`);
  if (restored.countries.length > 0) {
    lines.push(`No longer blocked: ${listed(restored.countries)}.`);
  }
  if (left.rules.length > 0 || left.countries.length > 0) {
    const what = [listed(left.rules), listed(left.countries)].filter(Boolean).join(", ");
    lines.push(`Left as they are, since you changed those settings after loading: ${what}.`);
  }
  return lines;
}

/**
 * Says when the account holds demo data, and removes it: its charges with their reviews,
 * labels and Stripe events, and the rules and countries it changed (unless changed since).
 */
export function RemoveDemoButton() {
  const trpc = useTRPC();
  const refresh = useDemoRefresh();
  const [confirming, setConfirming] = useState(false);
  // Removing is configuration (the server checks the same): others see why the button is off.
  const denied = useRoleReason("configure");
  const preview = useQuery(trpc.stripe.demoPreview.queryOptions());
  const remove = useMutation(
    trpc.stripe.removeDemo.mutationOptions({
      onSuccess: () => {
        setConfirming(false);
        refresh();
      },
    }),
  );
  const loaded = preview.data?.loadedCharges ?? 0;
  if (remove.data && loaded === 0) {
    return (
      <p className="message success demo-removed" role="status" data-demo-removed>
        {removedText(remove.data).join(" ")}
      </p>
    );
  }
  if (loaded === 0) return null;
  return (
    <section className="demo-bar" aria-label="Demo data" data-demo-bar>
      <span>
        This account holds <strong>{loaded}</strong> demo charges.
      </span>
      {!confirming && (
        <button
          type="button"
          className="secondary"
          disabled={Boolean(denied)}
          title={denied ?? undefined}
          aria-describedby={denied ? "remove-demo-denied" : undefined}
          onClick={() => setConfirming(true)}
        >
          Remove demo data…
        </button>
      )}
      <RoleNote id="remove-demo-denied" reason={denied} />
      {confirming && (
        <div className="demo-confirm" data-demo-remove-confirm>
          <p>
            Deletes the {loaded} demo charges with their reviews, labels and Stripe events (your own
            charges stay), and turns off the rules and unblocks the countries the demo changed,
            unless you changed those settings since.
          </p>
          <div className="demo-actions">
            <button type="button" disabled={remove.isPending} onClick={() => remove.mutate()}>
              {remove.isPending ? "Removing…" : "Remove demo data"}
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {remove.isError && (
        <p className="message error" role="alert">
          Could not remove demo data: {errorMessage(remove.error)}
        </p>
      )}
    </section>
  );
}
