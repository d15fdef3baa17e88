/** The merchant's API keys: name, first characters, created, last used; revoke after a confirm. */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { ApiKeyView } from "../../../../shared/schemas/api-keys.ts";
import { ErrorMessage } from "../../components/error-message.tsx";
import { useTRPC } from "../../lib/trpc.ts";

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "Never");

export function ApiKeyList({ keys, onRevoked }: { keys: ApiKeyView[]; onRevoked: () => void }) {
  const trpc = useTRPC();
  const [confirming, setConfirming] = useState<string | null>(null);
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSuccess: () => {
        setConfirming(null);
        onRevoked();
      },
    }),
  );

  if (keys.length === 0) return <p className="config-note">No API keys yet.</p>;
  return (
    <>
      <ul className="key-list" aria-label="API keys">
        {keys.map((key) => (
          <li key={key.id} data-key-id={key.id}>
            <div className="key-main">
              <strong>{key.name}</strong>
              <code>{key.start}…</code>
              {key.kind === "publishable" && <span className="badge">publishable</span>}
            </div>
            <small>
              Created {when(key.created_at)} · Last used {when(key.last_used_at)}
            </small>
            {confirming === key.id ? (
              <div className="key-confirm">
                <span>Revoke “{key.name}”? Calls with it will fail at once.</span>
                <button
                  type="button"
                  className="danger"
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate({ id: key.id })}
                >
                  Yes, revoke
                </button>
                <button type="button" className="secondary" onClick={() => setConfirming(null)}>
                  Cancel
                </button>
              </div>
            ) : (
              <button
                type="button"
                className="secondary"
                aria-label={`Revoke ${key.name}`}
                onClick={() => setConfirming(key.id)}
              >
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
      <ErrorMessage error={revoke.error} />
    </>
  );
}
