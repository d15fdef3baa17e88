/**
 * Allowed origins, beside the keys warden.js uses: the sites whose pages may collect (and that
 * Referrer and origin mismatch compares with). An origin Warden refused lately is suggested
 * with a one-click Allow, so a first page on http://localhost:4000 is one click from working.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  type AllowedOriginsView,
  type RefusedOrigin,
  ZOrigin,
} from "../../../../shared/schemas/allowed-origins.ts";
import { LoadError } from "../../components/save-status.tsx";
import { errorMessage, fieldErrors, useTRPC } from "../../lib/trpc.ts";
import "./allowed-origins.css";

export function AllowedOrigins() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useQuery(trpc.allowedOrigins.get.queryOptions());
  const show = (next: AllowedOriginsView) =>
    queryClient.setQueryData(trpc.allowedOrigins.get.queryKey(), next);
  const allow = useMutation(trpc.allowedOrigins.allow.mutationOptions({ onSuccess: show }));
  const set = useMutation(trpc.allowedOrigins.set.mutationOptions({ onSuccess: show }));
  const [typed, setTyped] = useState("");
  const [localError, setLocalError] = useState<string | null>(null);
  const typedError = localError ?? fieldErrors(allow.error).origin;

  function add(event: FormEvent) {
    event.preventDefault();
    allow.reset();
    const checked = ZOrigin.safeParse(typed);
    if (!checked.success) {
      setLocalError(checked.error.issues[0]?.message ?? "is not valid");
      return;
    }
    setLocalError(null);
    allow.mutate({ origin: checked.data }, { onSuccess: () => setTyped("") });
  }

  if (view.isError)
    return <LoadError what="your allowed origins" error={errorMessage(view.error)} />;
  if (!view.data) return <p className="loading">Loading…</p>;
  const { origins, refused } = view.data;
  return (
    <div className="stack allowed-origins settings-anchor" id="collector">
      <h3 id="allowed-origins-title">Allowed origins</h3>
      <p className="config-note">
        warden.js collects only on pages from these origins, and Referrer and origin mismatch
        compares with them. An origin is scheme, host and port: <code>http://localhost:4000</code>{" "}
        and <code>http://127.0.0.1:4000</code> are two different origins.
      </p>
      {refused.map((suggestion) => (
        <Suggestion
          key={suggestion.origin}
          refused={suggestion}
          busy={allow.isPending}
          onAllow={() => allow.mutate({ origin: suggestion.origin })}
        />
      ))}
      {origins.length === 0 ? (
        <p className="config-note">No origin allowed yet: warden.js is refused on every page.</p>
      ) : (
        <ul className="origin-list" aria-labelledby="allowed-origins-title">
          {origins.map((origin) => (
            <li key={origin}>
              <code>{origin}</code>
              <button
                type="button"
                className="secondary"
                aria-label={`Remove ${origin}`}
                disabled={set.isPending}
                onClick={() => set.mutate({ origins: origins.filter((o) => o !== origin) })}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="inline-form" onSubmit={add} noValidate aria-label="Allow an origin">
        <label>
          Origin
          <input
            name="allowed_origin"
            placeholder="https://shop.example.com"
            spellCheck={false}
            value={typed}
            aria-describedby={typedError ? "allowed_origin-error" : undefined}
            aria-invalid={typedError ? true : undefined}
            onChange={(event) => {
              setTyped(event.target.value);
              setLocalError(null);
            }}
          />
          {typedError && (
            <span className="field-error" id="allowed_origin-error">
              Origin {typedError}
            </span>
          )}
        </label>
        <button type="submit" disabled={allow.isPending}>
          Allow origin
        </button>
      </form>
      {(set.error || (allow.error && !typedError)) && (
        <p className="message error" role="alert">
          {errorMessage(set.error ?? allow.error)}
        </p>
      )}
    </div>
  );
}

function Suggestion({
  refused,
  busy,
  onAllow,
}: {
  refused: RefusedOrigin;
  busy: boolean;
  onAllow(): void;
}) {
  const when = new Date(refused.last_at).toLocaleString();
  return (
    <div className="origin-suggestion" role="status" data-origin={refused.origin}>
      <p>
        warden.js was refused on <code>{refused.origin}</code> ({when}). Allow{" "}
        <code>{refused.origin}</code>?
      </p>
      <button type="button" disabled={busy} onClick={onAllow}>
        Allow {refused.origin}
      </button>
    </div>
  );
}
