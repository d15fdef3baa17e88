/**
 * The alerts' history, newest first: each event fired, resolved or sent as a test, when, its
 * message, its chart, and what each channel answered (an email queued, Slack's HTTP status or
 * its failure).
 */
import type { AlertEventView } from "../../../../shared/schemas/alerts.ts";
import { AlertChart } from "./alert-chart.tsx";
import { capital, deliveredRows, KIND_LABELS } from "./alert-format.ts";

const TONES = { fired: "tone-red", resolved: "tone-green", test: "tone-gray" } as const;

export function AlertEvents({ events }: { events: AlertEventView[] }) {
  if (events.length === 0) {
    return <p className="config-note">No alert has fired yet, and no test was sent.</p>;
  }
  return (
    <ul className="al-events" aria-label="Alert events">
      {events.map((event) => (
        <li key={event.id} data-alert-event={event.id} data-kind={event.kind}>
          <div className="al-event-head">
            <span className={`al-kind ${TONES[event.kind]}`}>{KIND_LABELS[event.kind]}</span>
            <strong>{event.alert_name}</strong>
            <time dateTime={event.at}>{new Date(event.at).toLocaleString()}</time>
          </div>
          <p className="al-message">{capital(event.message)}.</p>
          <AlertChart event={event} />
          <Delivered delivered={event.delivered} />
        </li>
      ))}
    </ul>
  );
}

function Delivered({ delivered }: { delivered: Record<string, string> }) {
  const rows = deliveredRows(delivered);
  if (rows.length === 0) return <p className="config-note al-delivered">Sent to no channel.</p>;
  return (
    <dl className="al-delivered" aria-label="What each channel answered">
      {rows.map(([channel, answer]) => (
        <div key={channel} data-channel={channel}>
          <dt>{channel}</dt>
          <dd>{answer}</dd>
        </div>
      ))}
    </dl>
  );
}
