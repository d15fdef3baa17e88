/**
 * The Alerts page (issue 45): the alerts set on the account, a form to add or edit one, and
 * the history of what fired, resolved or was sent as a test, each with its chart. Every member
 * reads it all; only a role that may change the configuration gets the controls.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AlertView } from "../../../../shared/schemas/alerts.ts";
import { useCan, useRoleReason } from "../../components/editable.tsx";
import { Loaded } from "../../components/loaded.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { AlertEvents } from "./alert-events.tsx";
import { AlertForm } from "./alert-form.tsx";
import { AlertList } from "./alert-list.tsx";
import "../../components/console.css";
import "./alerts.css";

export default function AlertsPage() {
  return (
    <SignedIn>
      <h1>Alerts</h1>
      <p className="config-note al-intro">
        Warden measures each alert every minute against a threshold, or against the same hours of
        the weeks before (a spike), and tells you by email, a webhook event and Slack.
      </p>
      <Alerts />
    </SignedIn>
  );
}

function Alerts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const mayChange = useCan("configure");
  const reason = useRoleReason("configure");
  const alerts = useQuery(trpc.alerts.list.queryOptions(undefined, { staleTime: 0 }));
  const events = useQuery(
    trpc.alerts.events.queryOptions(undefined, { staleTime: 0, refetchInterval: 60_000 }),
  );
  const [editing, setEditing] = useState<AlertView | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.alerts.pathKey() });

  return (
    <>
      <section className="panel stack al-panel" aria-labelledby="alerts-title">
        <h2 id="alerts-title">Your alerts</h2>
        {!mayChange && reason && (
          <p className="config-note" role="note">
            {reason} An admin or an owner sets alerts.
          </p>
        )}
        <Loaded query={alerts} what="your alerts">
          {(list) => (
            <AlertList
              alerts={list}
              mayChange={mayChange}
              editing={editing?.id ?? null}
              onEdit={(alert) => setEditing(alert)}
              onChanged={refresh}
            />
          )}
        </Loaded>
        {mayChange && (
          <AlertForm
            key={editing?.id ?? "new"}
            editing={editing}
            onDone={() => setEditing(null)}
            onSaved={refresh}
          />
        )}
      </section>
      <section className="panel stack al-panel" aria-labelledby="alert-history-title">
        <h2 id="alert-history-title">History</h2>
        <Loaded query={events} what="the alerts' history">
          {(data) => <AlertEvents events={data.events} />}
        </Loaded>
      </section>
    </>
  );
}
