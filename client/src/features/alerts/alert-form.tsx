/**
 * Adds an alert, or edits one (its fields: alert-form-fields.tsx). Checked with the server's
 * schema before it is sent; what the server still refuses (a Slack URL it may not post to)
 * shows under its field. The stored Slack URL is never sent back: its hint shows, and a blank
 * field keeps it.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { type AlertView, ZAlertInput } from "../../../../shared/schemas/alerts.ts";
import { ErrorMessage } from "../../components/error-message.tsx";
import { fieldErrors, useTRPC } from "../../lib/trpc.ts";
import { issuesByPath } from "../../lib/zod-issues.ts";
import {
  type AlertDraft,
  draftOf,
  formErrors,
  inputOf,
  NEW_DRAFT,
  withMetric,
} from "./alert-drafts.ts";
import { ChannelFields, type FieldsProps, WatchFields } from "./alert-form-fields.tsx";

type Props = {
  /** The alert being edited; null adds one. */
  editing: AlertView | null;
  onDone: () => void;
  onSaved: () => Promise<unknown>;
};

export function AlertForm({ editing, onDone, onSaved }: Props) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState<AlertDraft>(editing ? draftOf(editing) : NEW_DRAFT);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [added, setAdded] = useState<string | null>(null);
  const saved = (name: string) => {
    setLocalErrors({});
    setDraft(NEW_DRAFT);
    setAdded(name);
    void onSaved();
    onDone();
  };
  const create = useMutation(
    trpc.alerts.create.mutationOptions({ onSuccess: (alert) => saved(alert.name) }),
  );
  const update = useMutation(
    trpc.alerts.update.mutationOptions({ onSuccess: (alert) => saved(alert.name) }),
  );
  const save = editing ? update : create;
  const form = useRef<HTMLFormElement>(null);
  // Edit is pressed in the list above: the form it fills comes into view, its first field focused.
  useEffect(() => {
    if (!editing) return;
    form.current?.scrollIntoView({ block: "start" });
    form.current?.querySelector("input")?.focus({ preventScroll: true });
  }, [editing]);
  const errors = { ...formErrors(fieldErrors(save.error)), ...localErrors };
  const set = <K extends keyof AlertDraft>(field: K, value: AlertDraft[K]) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setLocalErrors(({ [field]: _, ...rest }) => rest);
    setAdded(null);
    save.reset();
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    save.reset();
    const input = inputOf(draft, editing !== null);
    const checked = ZAlertInput.safeParse(input);
    if (!checked.success) {
      setLocalErrors(issuesByPath(checked.error));
      return;
    }
    setLocalErrors({});
    if (editing) update.mutate({ id: editing.id, alert: input });
    else create.mutate(input);
  }

  const fieldError = (field: string, label: string) =>
    errors[field] && (
      <span className="field-error" id={`alert-${field}-error`}>
        {label} {errors[field]}
      </span>
    );
  const described = (field: string, hint?: string) =>
    errors[field] ? `alert-${field}-error` : hint;
  const fields: FieldsProps = {
    draft,
    set,
    setMetric: (metric) => {
      setDraft((current) => withMetric(current, metric));
      save.reset();
    },
    fieldError,
    described,
  };
  const anyFieldError = Object.keys(errors).length > 0;
  const title = editing ? `Edit “${editing.name}”` : "Add an alert";

  return (
    <form ref={form} className="stack al-form" onSubmit={submit} noValidate aria-label={title}>
      <h3>{title}</h3>
      <label>
        Name
        <input
          name="alert_name"
          value={draft.name}
          maxLength={80}
          placeholder="e.g. Scraping hits"
          aria-describedby={described("name")}
          onChange={(e) => set("name", e.target.value)}
        />
        {fieldError("name", "Name")}
      </label>
      <WatchFields {...fields} />
      <ChannelFields {...fields} slackHint={editing?.slack_url_hint ?? null} />
      <div className="al-form-actions">
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : editing ? "Save alert" : "Add alert"}
        </button>
        {editing && (
          <button type="button" className="secondary" onClick={onDone}>
            Cancel
          </button>
        )}
      </div>
      {added && !editing && (
        <p className="message success" role="status">
          Alert “{added}” added.
        </p>
      )}
      <ErrorMessage error={!anyFieldError && save.error} />
    </form>
  );
}
