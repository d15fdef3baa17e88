import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { DemoPreview } from "../../../../shared/schemas/demo.ts";
import { RoleNote, useRoleReason } from "../../components/editable.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { useDemoRefresh } from "./remove-demo-button.tsx";
import "./demo-data.css";

const names = (items: { label: string; key: string }[]) =>
  items.map((item) => (item.key === item.label ? item.key : `${item.label} (${item.key})`));

/** What loading the demo does, one line each, as the confirm step says it. */
export function demoEffects(preview: DemoPreview): string[] {
  const { adds } = preview;
  const lines = [
    `Adds ${adds.charges} sample Stripe charges from the last ${adds.days} days (${adds.failedCharges} of them failed) and ${adds.fraudLabels} fraud labels from Stripe; no screenings.`,
  ];
  if (preview.turnsOn.length > 0) {
    lines.push(`Turns on ${preview.turnsOn.length} rules: ${names(preview.turnsOn).join(", ")}.`);
  } else {
    lines.push("Turns no rule on (one of the Standard rules is on already).");
  }
  if (preview.blocks.length > 0) {
    lines.push(`Adds ${names(preview.blocks).join(", ")} to your blocked countries.`);
  }
  if (preview.setsSigningSecret) {
    lines.push("Saves a demo Stripe signing secret (you have none yet).");
  }
  lines.push(
    "Sends nothing to your decision webhooks, and the rules' refunds of demo charges are simulated, never sent to Stripe.",
  );
  return lines;
}

/**
 * Sends Warden's signed sample events through this account's real webhook path, so a
 * newcomer sees the dashboard and the rules at work without a Stripe account; first says
 * exactly what loading does, and waits for a confirmation.
 */
export function LoadDemoButton() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = useDemoRefresh();
  const [confirming, setConfirming] = useState(false);
  // Loading changes rules and lists, so it needs the configure permission, as on the server.
  const denied = useRoleReason("configure");
  const preview = useQuery({
    ...trpc.stripe.demoPreview.queryOptions(),
    enabled: confirming,
    staleTime: 0,
  });
  const load = useMutation(
    trpc.stripe.loadDemo.mutationOptions({
      onSuccess: () => {
        setConfirming(false);
        void queryClient.invalidateQueries({ queryKey: trpc.dashboard.pathKey() });
        refresh();
      },
    }),
  );
  const data = preview.data;
  return (
    <div className="tx-demo">
      {!confirming ? (
        <>
          <button
            type="button"
            disabled={Boolean(denied)}
            title={denied ?? undefined}
            aria-describedby={denied ? "load-demo-denied" : undefined}
            onClick={() => setConfirming(true)}
          >
            Load demo data…
          </button>
          {denied ? (
            <RoleNote id="load-demo-denied" reason={denied} />
          ) : (
            <small>Sample Stripe charges, to see the dashboard and the rules at work.</small>
          )}
        </>
      ) : (
        <section className="demo-confirm" aria-label="Load demo data" data-demo-confirm>
          <p>
            <strong>Loading demo data:</strong>
          </p>
          {preview.isError && (
            <p className="message error" role="alert">
              {errorMessage(preview.error)}
            </p>
          )}
          {!data ? (
            !preview.isError && <p className="loading">Loading…</p>
          ) : (
            <>
              <ul>
                {demoEffects(data).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
              <p className="muted">
                "Remove demo data" takes it away again, with the rules and countries it changed
                (unless you change them meanwhile).
              </p>
              {!data.canLoad && (
                <p className="message error" role="alert">
                  Demo data can only be loaded on a local install.
                </p>
              )}
            </>
          )}
          <div className="demo-actions">
            <button
              type="button"
              disabled={!data?.canLoad || load.isPending}
              onClick={() => load.mutate()}
            >
              {load.isPending ? "Loading demo data…" : "Load demo data"}
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </section>
      )}
      {load.isError && (
        <p className="message error" role="alert">
          Could not load demo data: {errorMessage(load.error)}
        </p>
      )}
    </div>
  );
}
