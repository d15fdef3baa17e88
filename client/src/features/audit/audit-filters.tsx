/** The Audit log's filters: the kind of change, part of who did it, and a range of days. */
import { useEffect, useRef, useState } from "react";
import { ACTION_GROUPS, type ActionGroup, type AuditFilterForm } from "./audit-format.ts";

const TYPING_PAUSE_MS = 300;

export function AuditFilters({
  value,
  onChange,
}: {
  value: AuditFilterForm;
  onChange: (form: AuditFilterForm) => void;
}) {
  const set = (patch: AuditFilterForm) => onChange({ ...value, ...patch });
  return (
    <form
      className="au-filters"
      aria-label="Filter the audit log"
      onSubmit={(e) => e.preventDefault()}
    >
      <label>
        Kind of change
        <select
          name="group"
          value={value.group ?? ""}
          onChange={(event) =>
            set({ group: (event.target.value || undefined) as ActionGroup | undefined })
          }
        >
          <option value="">All</option>
          {ACTION_GROUPS.map((group) => (
            <option key={group.key} value={group.key}>
              {group.label}
            </option>
          ))}
        </select>
      </label>
      <ActorField value={value.actor} onChange={(actor) => set({ actor })} />
      <label>
        From
        <input
          type="date"
          name="from"
          value={value.from ?? ""}
          onChange={(event) => set({ from: event.target.value || undefined })}
        />
      </label>
      <label>
        To
        <input
          type="date"
          name="to"
          value={value.to ?? ""}
          onChange={(event) => set({ to: event.target.value || undefined })}
        />
      </label>
    </form>
  );
}

/** Part of an email, or "API key": applied once typing pauses, so each key is not a query. */
function ActorField({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (actor: string | undefined) => void;
}) {
  const [text, setText] = useState(value ?? "");
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    const actor = text.trim() || undefined;
    if (actor === value) return;
    const timer = setTimeout(() => latest.current(actor), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <label>
      Who
      <input
        type="search"
        name="actor"
        placeholder="Email or API key"
        autoComplete="off"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </label>
  );
}
