/**
 * Settings → Data retention: every kind of personal data Warden keeps, what it holds and for
 * how many days. Every member sees it; only an owner may change it (the form is disabled for
 * the rest, and the server refuses them anyway). What a setting would break among the rules'
 * windows shows as it is typed, before saving; the server's refusals show at their field.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { MESSAGES } from "../../../../shared/messages.ts";
import { type RetentionKind, retentionBreaks } from "../../../../shared/privacy/retention.ts";
import {
  type RetentionSettings,
  type RetentionView,
  ZRetentionSettings,
} from "../../../../shared/schemas/retention.ts";
import { Editable } from "../../components/editable.tsx";
import { ErrorMessage } from "../../components/error-message.tsx";
import { Loaded } from "../../components/loaded.tsx";
import { fieldErrors, useTRPC } from "../../lib/trpc.ts";
import "./retention.css";

export function RetentionSection() {
  const trpc = useTRPC();
  const view = useQuery(trpc.retention.get.queryOptions());
  return (
    <section className="panel stack retention" aria-labelledby="retention-title">
      <h2 id="retention-title">Data retention</h2>
      <p className="config-note">
        How long Warden keeps what it stores about your end users. Housekeeping deletes (or, for
        charges, clears) what is older, account by account.
      </p>
      <Loaded query={view} what="the retention settings">
        {(saved) => (
          <Editable need="own">
            <RetentionForm saved={saved} />
          </Editable>
        )}
      </Loaded>
    </section>
  );
}

type Drafts = Record<string, string>;

const draftsOf = (view: RetentionView): Drafts =>
  Object.fromEntries(view.kinds.map((k) => [k.kind, String(k.days)]));

/** A draft as days, or NaN when it is not a number. */
const daysOf = (draft: string | undefined) =>
  draft === undefined || draft.trim() === "" ? Number.NaN : Number(draft);

function RetentionForm({ saved }: { saved: RetentionView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<Drafts>(() => draftsOf(saved));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  useEffect(() => setDrafts(draftsOf(saved)), [saved]);
  const put = useMutation(
    trpc.retention.put.mutationOptions({
      onSuccess: (next) => queryClient.setQueryData(trpc.retention.get.queryKey(), next),
    }),
  );
  const serverErrors = fieldErrors(put.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    put.reset();
    // Only what changed; a kind set to its default follows the default from then on.
    const changes: Record<string, number | null> = {};
    for (const kind of saved.kinds) {
      const days = daysOf(drafts[kind.kind]);
      if (days === kind.days && !Number.isNaN(days)) continue;
      changes[kind.kind] = days === kind.default_days ? null : days;
    }
    const checked = ZRetentionSettings.safeParse(changes);
    if (!checked.success) {
      setLocalErrors(
        Object.fromEntries(checked.error.issues.map((i) => [String(i.path[0]), i.message])),
      );
      return;
    }
    setLocalErrors({});
    put.mutate(checked.data as RetentionSettings);
  }

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Data retention">
      <ul className="retention-list">
        {saved.kinds.map((kind) => {
          const id = `retention-${kind.kind}`;
          const days = daysOf(drafts[kind.kind]);
          const error = localErrors[kind.kind] ?? serverErrors[kind.kind];
          const breaks = Number.isInteger(days)
            ? retentionBreaks(kind.kind as RetentionKind, days, saved.windows)
            : [];
          return (
            <li key={kind.kind} className="retention-kind" data-kind={kind.kind}>
              <label htmlFor={id}>{kind.label}</label>
              <p className="retention-holds">{kind.holds}</p>
              <div className="retention-days">
                <input
                  id={id}
                  type="number"
                  name={kind.kind}
                  min={kind.min}
                  max={kind.max}
                  step={1}
                  value={drafts[kind.kind] ?? ""}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={`${id}-note`}
                  onChange={(event) => {
                    const value = event.target.value;
                    setDrafts((current) => ({ ...current, [kind.kind]: value }));
                    setLocalErrors((current) => ({ ...current, [kind.kind]: "" }));
                  }}
                />
                <span>days</span>
              </div>
              {error ? (
                <span className="field-error" id={`${id}-note`} role="alert">
                  {kind.label}: {error}
                </span>
              ) : (
                <small id={`${id}-note`}>
                  Default {kind.default_days} days{kind.is_default ? " (in use)" : ""}; from{" "}
                  {kind.min} to {kind.max}.
                </small>
              )}
              {breaks.length > 0 && (
                <ul
                  className="retention-warning"
                  role="note"
                  aria-label={`${kind.label}: what this breaks`}
                >
                  {breaks.map((sentence) => (
                    <li key={sentence}>{sentence}</li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      <div>
        <button type="submit" disabled={put.isPending}>
          {put.isPending ? "Saving…" : "Save retention"}
        </button>
      </div>
      {put.isSuccess && (
        <p className="message success" role="status">
          {MESSAGES.settingsSaved}
        </p>
      )}
      <ErrorMessage error={Object.keys(serverErrors).length === 0 && put.error} />
    </form>
  );
}
