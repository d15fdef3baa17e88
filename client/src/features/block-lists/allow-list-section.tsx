/**
 * The allow list, beside the block lists: values the merchant trusts (an email, a domain, a
 * user id, an IP or range, a device, a card). An event carrying one is allowed whatever the
 * rules say, except the block lists, which always win (docs/allow-lists.md). Entries can expire.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  ALLOW_KIND_NAMES,
  ALLOW_KINDS,
  type AllowKind,
} from "../../../../shared/schemas/allow-list.ts";
import { LoadError } from "../../components/save-status.tsx";
import { TextField } from "../../components/text-field.tsx";
import { errorMessage, fieldErrors, useTRPC } from "../../lib/trpc.ts";

export function AllowListSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.allowList.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.allowList.list.queryKey() });
  const add = useMutation(trpc.allowList.add.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.allowList.remove.mutationOptions({ onSuccess: refresh }));
  const [kind, setKind] = useState<AllowKind>("user_id");
  const [value, setValue] = useState("");
  const [note, setNote] = useState("");
  const [expires, setExpires] = useState("");

  function submit(event: FormEvent) {
    event.preventDefault();
    add.mutate(
      {
        kind,
        value,
        note: note || undefined,
        expires_at: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
      },
      {
        onSuccess: () => {
          setValue("");
          setNote("");
          setExpires("");
        },
      },
    );
  }
  const errors = fieldErrors(add.error);

  return (
    <section className="config-section" aria-labelledby="allow-title">
      <h2 id="allow-title">Allow list</h2>
      <p className="config-note">
        An event with a listed value is allowed whatever the rules say, except a blocked country or
        email provider: the block lists always win. A device matches only a device id your backend
        sends, never one warden.js collected. Ranges: at most /16 (IPv6 /32).
      </p>
      <form className="allow-form" aria-label="Add to the allow list" onSubmit={submit}>
        <label>
          Kind
          <select name="kind" value={kind} onChange={(e) => setKind(e.target.value as AllowKind)}>
            {ALLOW_KINDS.map((k) => (
              <option key={k} value={k}>
                {ALLOW_KIND_NAMES[k]}
              </option>
            ))}
          </select>
        </label>
        <TextField label="Value" name="value" autoComplete="off" value={value} onValue={setValue} />
        <label>
          Note
          <input name="note" value={note} onChange={(e) => setNote(e.target.value)} />
        </label>
        <TextField
          label="Expires"
          name="expires"
          type="date"
          value={expires}
          onValue={setExpires}
        />
        <button type="submit" disabled={add.isPending || value.trim() === ""}>
          Allow
        </button>
      </form>
      {add.isError && (
        <p className="message error" role="alert">
          {errors.value ?? errors.expires_at ?? errorMessage(add.error)}
        </p>
      )}
      {list.isError ? (
        <LoadError what="the allow list" error={errorMessage(list.error)} />
      ) : list.data?.length === 0 ? (
        <p className="config-note">Nothing allowed yet.</p>
      ) : (
        <ul className="allow-list" aria-label="Allowed values">
          {list.data?.map((entry) => (
            <li key={entry.id}>
              <span>
                <b>{ALLOW_KIND_NAMES[entry.kind]}</b> {entry.value}
              </span>
              <span className="config-note">
                added by {entry.added_by} on {entry.created_at.slice(0, 10)}
                {entry.expires_at ? `, until ${entry.expires_at.slice(0, 10)}` : ""}
                {entry.note ? ` · ${entry.note}` : ""}
              </span>
              <button
                type="button"
                className="secondary"
                aria-label={`Remove ${entry.value}`}
                disabled={remove.isPending}
                onClick={() => remove.mutate({ id: entry.id })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
