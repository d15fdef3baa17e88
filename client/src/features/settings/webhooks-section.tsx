/**
 * Decision webhooks: endpoints that hear about blocks, reviews, settlements and labels (the
 * signing secret is shown once; every endpoint is listed, up to the account's cap; one
 * disabled for failing says since when, with a way to re-enable it), and the delivery log
 * with each attempt and a re-send.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  WEBHOOK_EVENTS,
  type WebhookEndpointView,
  type WebhookEventType,
} from "../../../../shared/schemas/webhooks.ts";
import { ErrorMessage } from "../../components/error-message.tsx";
import { LoadError } from "../../components/save-status.tsx";
import { SecretOnce } from "../../components/secret-once.tsx";
import { errorMessage, fieldErrors, useTRPC } from "../../lib/trpc.ts";

export function WebhooksSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const endpoints = useQuery(trpc.webhooks.endpoints.queryOptions());
  const limit = useQuery(trpc.webhooks.endpointLimit.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>([
    "screening.blocked",
    "review.approved",
    "review.denied",
  ]);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const create = useMutation(
    trpc.webhooks.createEndpoint.mutationOptions({
      onSuccess: (created) => {
        setSecret({ url: created.url, secret: created.secret });
        setUrl("");
        void refresh();
      },
    }),
  );
  const remove = useMutation(trpc.webhooks.removeEndpoint.mutationOptions({ onSuccess: refresh }));
  const enable = useMutation(trpc.webhooks.enableEndpoint.mutationOptions({ onSuccess: refresh }));
  const errors = fieldErrors(create.error);
  const count = endpoints.data?.length ?? 0;
  const max = limit.data?.max;
  // An account past the cap (it had more before there was one) keeps them, but adds none.
  const full = max !== undefined && count >= max;

  function submit(event: FormEvent) {
    event.preventDefault();
    // One secret on screen at a time: another endpoint waits until this one's is acknowledged.
    if (secret) return;
    create.mutate({ url, events });
  }

  return (
    <section className="panel stack webhooks" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Decision webhooks</h2>
      <p className="config-note">
        Warden posts each event as JSON, signed: <code>Warden-Signature: t=…,v1=…</code> is the
        HMAC-SHA256 of <code>&lt;t&gt;.&lt;body&gt;</code> with the endpoint's secret. Check it with{" "}
        <code>verifyWebhook</code> from <code>warden/client</code>; de-duplicate by the event id.
      </p>
      <form className="stack" onSubmit={submit} noValidate aria-label="Add a webhook endpoint">
        <label>
          Endpoint URL
          <input
            name="webhook_url"
            placeholder="https://shop.example.com/hooks/warden"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
          {errors.url && <span className="field-error">URL {errors.url}</span>}
        </label>
        <fieldset className="wh-events" aria-label="Events">
          {WEBHOOK_EVENTS.map((type) => (
            <label key={type} className="check-row">
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={() =>
                  setEvents((list) =>
                    list.includes(type) ? list.filter((e) => e !== type) : [...list, type],
                  )
                }
              />
              <code>{type}</code>
            </label>
          ))}
        </fieldset>
        <div>
          <button
            type="submit"
            disabled={create.isPending || full || url.trim() === "" || secret !== null}
            aria-describedby={secret ? "webhook-secret-wait" : undefined}
          >
            Add endpoint
          </button>
        </div>
        {secret && (
          <p className="secret-wait" id="webhook-secret-wait">
            Copy the signing secret below and press “I have copied it” before adding another.
          </p>
        )}
        {max !== undefined && (
          <p className="config-note" data-endpoint-count>
            {full
              ? `${count} of at most ${max} endpoints: remove one to add another.`
              : `${count} of at most ${max} endpoints.`}
          </p>
        )}
        <ErrorMessage error={!errors.url && create.error} />
      </form>
      {secret && (
        <SecretOnce
          title="New signing secret"
          fieldLabel="Signing secret"
          name="webhook_signing_secret"
          secret={secret.secret}
          onDone={() => setSecret(null)}
        >
          <strong>Copy it now, it will not be shown again.</strong> Warden signs each event it sends
          to <code>{secret.url}</code> with it.
        </SecretOnce>
      )}
      {endpoints.isError ? (
        <LoadError what="your endpoints" error={errorMessage(endpoints.error)} />
      ) : (
        <ul className="wh-endpoints" aria-label="Endpoints">
          {endpoints.data?.map((endpoint) => (
            <li key={endpoint.id} data-endpoint={endpoint.id}>
              <code>{endpoint.url}</code>
              <span className="config-note">{endpoint.events.join(", ")}</span>
              <span className="wh-actions">
                {endpoint.disabled_at && (
                  <button
                    type="button"
                    disabled={enable.isPending}
                    onClick={() => enable.mutate({ id: endpoint.id })}
                  >
                    Re-enable
                  </button>
                )}
                <button
                  type="button"
                  className="secondary"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate({ id: endpoint.id })}
                >
                  Remove
                </button>
              </span>
              <EndpointHealth endpoint={endpoint} />
            </li>
          ))}
        </ul>
      )}
      <DeliveryLog />
    </section>
  );
}

/** Disabled after failing for days (no new deliveries), or failing now; nothing if healthy. */
function EndpointHealth({ endpoint }: { endpoint: WebhookEndpointView }) {
  const when = (iso: string) => new Date(iso).toLocaleString();
  const since = endpoint.failing_since
    ? ` after failing since ${when(endpoint.failing_since)}`
    : "";
  if (endpoint.disabled_at) {
    return (
      <p className="message error wh-health" role="status">
        Disabled on {when(endpoint.disabled_at)}
        {since}
        {endpoint.disabled_reason ? ` (${endpoint.disabled_reason})` : ""}: it gets no new events
        until re-enabled.
      </p>
    );
  }
  if (endpoint.failing_since) {
    return (
      <p className="config-note wh-health">
        Failing since {when(endpoint.failing_since)}: disabled after 3 days with no success.
      </p>
    );
  }
  return null;
}

function DeliveryLog() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const log = useQuery(trpc.webhooks.deliveries.queryOptions(undefined, { refetchInterval: 5000 }));
  const resend = useMutation(
    trpc.webhooks.resend.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey() }),
    }),
  );
  if (log.isError) return <LoadError what="the delivery log" error={errorMessage(log.error)} />;
  if (!log.data || log.data.length === 0) return <p className="config-note">No deliveries yet.</p>;
  return (
    <div className="wh-scroll">
      <table className="wh-log" aria-label="Deliveries">
        <thead>
          <tr>
            <th>Event</th>
            <th>Status</th>
            <th>Attempts</th>
            <th>When</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {log.data.map((d) => (
            <tr key={d.id} data-delivery={d.id} data-status={d.status}>
              <td>
                <code>{d.event_type}</code>
                <div className="config-note">{d.event_id}</div>
              </td>
              <td>{d.status}</td>
              <td>
                {d.attempts.length === 0
                  ? "-"
                  : d.attempts.map((a) => (
                      <div key={a.at}>
                        {a.status ?? "no answer"}
                        {a.error && a.error !== `HTTP ${a.status}` ? ` (${a.error})` : ""} · {a.ms}{" "}
                        ms
                      </div>
                    ))}
              </td>
              <td>{new Date(d.created_at).toLocaleString()}</td>
              <td>
                <button
                  type="button"
                  className="secondary"
                  disabled={resend.isPending}
                  onClick={() => resend.mutate({ id: d.id })}
                >
                  Re-send
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
