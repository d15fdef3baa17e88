/**
 * Getting started on the Dashboard: while nothing acts on the risk score (no event type has a
 * threshold in force), one click turns on the recommended set-up, and the card says first
 * exactly what that turns on. Members who cannot configure see it disabled, with why.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Editable } from "../../components/editable.tsx";
import { errorMessage, useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import {
  needsSetup,
  recommendedTemplates,
  recommendedThresholds,
  templateLine,
  thresholdLines,
} from "./recommended-setup.ts";
import "./recommended-setup.css";

export function RecommendedSetup() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const view = useQuery(trpc.scoreThresholds.get.queryOptions());
  const [done, setDone] = useState(false);
  const turnOn = useMutation({
    mutationFn: async () => {
      if (!view.data) return;
      const templates = await client.templates.get.query();
      await client.templates.put.mutate(recommendedTemplates(templates));
      await client.scoreThresholds.put.mutate({ thresholds: recommendedThresholds(view.data) });
    },
    onSuccess: () => {
      setDone(true);
      void queryClient.invalidateQueries({ queryKey: trpc.scoreThresholds.pathKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.templates.pathKey() });
    },
  });

  if (done) {
    return (
      <p className="message success gs-done" role="status">
        Saved: the recommended set-up is on. Screenings are now reviewed or blocked when their risk
        score reaches the thresholds; change them under Risk score.
      </p>
    );
  }
  if (!view.data || !needsSetup(view.data)) return null;
  const lines = thresholdLines(recommendedThresholds(view.data));
  const template = templateLine();
  return (
    <section className="gs-card" aria-labelledby="getting-started-title" data-getting-started>
      <h2 id="getting-started-title">Getting started: nothing acts on the risk score yet</h2>
      <p>
        Screenings are scored, but no event type has a threshold, so even a score of 100 is allowed.
        Turn on the recommended set-up:
      </p>
      <ul>
        <li>
          The risk score acts at the thresholds Warden ships with:
          <ul aria-label="Thresholds it sets">
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </li>
        <li>
          The <strong>{template.label}</strong> template: {template.description}
        </li>
      </ul>
      <Editable need="configure">
        <button type="button" disabled={turnOn.isPending} onClick={() => turnOn.mutate()}>
          {turnOn.isPending ? "Turning on…" : "Turn on the recommended set-up"}
        </button>
      </Editable>
      <p className="muted">You can change each part later under Risk score and Templates.</p>
      {turnOn.isError && (
        <p className="message error" role="alert">
          Could not turn it on: {errorMessage(turnOn.error)}
        </p>
      )}
    </section>
  );
}
