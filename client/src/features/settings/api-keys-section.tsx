/**
 * API keys: create one with a name and a kind (the key is shown once): a secret key for the
 * merchant's backend, or a publishable key for warden.js in their pages (it can only
 * collect). List them by name and first characters, revoke one after a confirmation.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  type ApiKeyCreated,
  type ApiKeyKind,
  ZApiKeyCreate,
} from "../../../../shared/schemas/api-keys.ts";
import { ErrorMessage } from "../../components/error-message.tsx";
import { Loaded } from "../../components/loaded.tsx";
import { fieldErrors, useTRPC } from "../../lib/trpc.ts";
import { AllowedOrigins } from "./allowed-origins.tsx";
import { ApiKeyList } from "./api-key-list.tsx";
import { NewKeyBox } from "./new-key-box.tsx";

export function ApiKeysSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.apiKeys.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
  const [name, setName] = useState("");
  const [kind, setKind] = useState<ApiKeyKind>("secret");
  const [localError, setLocalError] = useState<string | null>(null);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: (key) => {
        setCreated(key);
        setName("");
        void refresh();
      },
    }),
  );
  const nameError = localError ?? fieldErrors(create.error).name;

  function submit(event: FormEvent) {
    event.preventDefault();
    // One secret on screen at a time: a second key waits until the first is acknowledged.
    if (created) return;
    create.reset();
    const checked = ZApiKeyCreate.safeParse({ name, kind });
    if (!checked.success) {
      setLocalError(checked.error.issues[0]?.message ?? "is not valid");
      return;
    }
    setLocalError(null);
    create.mutate({ name, kind });
  }

  return (
    <section className="panel stack api-keys" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">API keys</h2>
      <p className="config-note">
        Your backend sends events to <code>POST /api/v1/screen</code> with{" "}
        <code>Authorization: Bearer &lt;key&gt;</code> and a secret key. warden.js in your pages
        uses a publishable key, which can only collect.
      </p>
      <form className="inline-form" onSubmit={submit} noValidate aria-label="Create an API key">
        <label>
          Key name
          <input
            name="api_key_name"
            placeholder="e.g. Production backend"
            value={name}
            maxLength={200}
            aria-describedby={nameError ? "api_key_name-error" : undefined}
            aria-invalid={nameError ? true : undefined}
            onChange={(event) => {
              setName(event.target.value);
              setLocalError(null);
            }}
          />
          {nameError && (
            <span className="field-error" id="api_key_name-error">
              Name {nameError}
            </span>
          )}
        </label>
        <label className="key-kind">
          Kind
          <select
            name="api_key_kind"
            value={kind}
            onChange={(event) => setKind(event.target.value as ApiKeyKind)}
          >
            <option value="secret">Secret (your backend)</option>
            <option value="publishable">Publishable (warden.js)</option>
          </select>
        </label>
        <button
          type="submit"
          disabled={create.isPending || created !== null}
          aria-describedby={created ? "api-key-wait" : undefined}
        >
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </form>
      {created && (
        <p className="secret-wait" id="api-key-wait">
          Copy the new key below and press “I have copied it” before creating another.
        </p>
      )}
      <ErrorMessage error={!nameError && create.error} />
      {created && <NewKeyBox created={created} onDone={() => setCreated(null)} />}
      <Loaded query={list} what="your API keys">
        {(keys) => <ApiKeyList keys={keys} onRevoked={refresh} />}
      </Loaded>
      <AllowedOrigins />
    </section>
  );
}
