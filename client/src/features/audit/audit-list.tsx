/**
 * The audit events, newest first, one card each: who did what, when (local time), from which
 * IP and to what (by name, the id one click away); a change that replaced a whole object opens to show each changed key, old
 * and new, and any other opens to show what was sent.
 */
import { useState } from "react";
import type { AuditEvent } from "../../../../shared/schemas/audit.ts";
import { Breakable } from "../../components/breakable.tsx";
import { changeName } from "../../lib/rule-format.ts";
import { actionSentence, changedKeys, formatValue, prettyJson } from "./audit-format.ts";

/** An event as the list gets it over tRPC (before and after may be left out when empty). */
export type ListedEvent = Omit<AuditEvent, "before" | "after"> & {
  before?: unknown;
  after?: unknown;
};

export function AuditList({ events }: { events: ListedEvent[] }) {
  return (
    <ol className="au-list">
      {events.map((event) => (
        <EventCard key={event.id} event={event} />
      ))}
    </ol>
  );
}

function Who({ event }: { event: ListedEvent }) {
  if (event.actor_kind === "api_key") {
    return (
      <span className="au-who">
        <span className="au-badge">API key</span> {event.actor.replace(/^API key\s*/, "")}
      </span>
    );
  }
  if (event.actor_kind === "system") {
    return (
      <span className="au-who">
        <span className="au-badge">Warden</span> {event.actor}
      </span>
    );
  }
  return (
    <span className="au-who">
      <Breakable value={event.actor} />
    </span>
  );
}

/**
 * What the event was done to, as a person reads it (kept when it was written: a removed
 * member's email, a revoked key's name), its id one click away; a thing the call made (an
 * invitation, a new key) has a label and no id yet; an event written before labels were kept
 * shows its id.
 */
function Target({ id, label }: { id: string | null; label: string | null }) {
  const [shown, setShown] = useState(false);
  if (!label || !id) {
    return (
      <span className="au-target">
        On{" "}
        {label ? (
          <strong className="au-target-label">
            <Breakable value={label} />
          </strong>
        ) : (
          <Breakable value={id ?? ""} />
        )}
      </span>
    );
  }
  return (
    <span className="au-target">
      On{" "}
      <strong className="au-target-label">
        <Breakable value={label} />
      </strong>{" "}
      <button
        type="button"
        className="au-id"
        aria-expanded={shown}
        onClick={() => setShown(!shown)}
        title={shown ? "Hide the id" : "Show the id"}
      >
        {shown ? "hide id" : "id"}
      </button>
      {shown && (
        <code className="au-id-value">
          <Breakable value={id} />
        </code>
      )}
    </span>
  );
}

const hasDetail = (event: ListedEvent) =>
  (event.before !== null && event.before !== undefined) ||
  (event.after !== null && event.after !== undefined);

function EventCard({ event }: { event: ListedEvent }) {
  const [open, setOpen] = useState(false);
  const failed = event.action === "auth.sign_in_failed";
  const detailId = `audit-${event.id}`;
  return (
    <li className={failed ? "au-event failed" : "au-event"} data-audit-event={event.id}>
      <p className="au-what">
        <Who event={event} /> <span data-action={event.action}>{actionSentence(event.action)}</span>
      </p>
      <p className="au-meta">
        <time dateTime={event.at}>{new Date(event.at).toLocaleString()}</time>
        {event.ip && (
          <span>
            IP <Breakable value={event.ip} />
          </span>
        )}
        {(event.target || event.target_label) && (
          <Target id={event.target} label={event.target_label} />
        )}
      </p>
      {hasDetail(event) && (
        <>
          <button
            type="button"
            className="secondary au-open"
            aria-expanded={open}
            aria-controls={detailId}
            onClick={() => setOpen(!open)}
          >
            {open ? "Hide details" : "Show details"}
          </button>
          {open && (
            <div className="au-detail" id={detailId}>
              <Detail before={event.before} after={event.after} />
            </div>
          )}
        </>
      )}
    </li>
  );
}

function Detail({ before, after }: { before: unknown; after: unknown }) {
  const changes = changedKeys(before, after);
  if (changes === null) {
    return (
      <>
        {before !== null && before !== undefined && (
          <>
            <h3>Before</h3>
            <pre>{prettyJson(before)}</pre>
          </>
        )}
        <h3>{before !== null && before !== undefined ? "After" : "Sent"}</h3>
        <pre>{prettyJson(after)}</pre>
      </>
    );
  }
  if (changes.length === 0) return <p>Nothing changed.</p>;
  return (
    <dl className="au-changes">
      {changes.map((change) => (
        <div key={change.key} data-change={change.key}>
          <dt>
            {changeName(change.key)}{" "}
            <small className="muted">
              <Breakable value={change.key} />
            </small>
          </dt>
          <dd>
            <span className="au-old">{formatValue(change.before)}</span>
            <span aria-hidden="true"> → </span>
            <span className="visually-hidden"> changed to </span>
            <span className="au-new">{formatValue(change.after)}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
