/**
 * App and Stripe settings. Secrets are write-only: the boxes start empty, the stored key shows
 * only as its hint, and leaving a box empty keeps what is stored.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { MESSAGES } from "../../../../shared/messages.ts";
import {
  type SettingsInput,
  type SettingsView,
  ZSettingsInput,
} from "../../../../shared/schemas/settings.ts";
import { ErrorMessage } from "../../components/error-message.tsx";
import { LoadError } from "../../components/save-status.tsx";
import { errorMessage, fieldErrors, useTRPC } from "../../lib/trpc.ts";
import { issuesByPath } from "../../lib/zod-issues.ts";
import "../../components/console.css";

export function SettingsSection() {
  const trpc = useTRPC();
  const query = useQuery(trpc.settings.get.queryOptions());
  if (query.isError) return <LoadError what="your settings" error={errorMessage(query.error)} />;
  if (!query.data) return <p className="loading">Loading…</p>;
  return <SettingsForm stored={query.data} />;
}

type Draft = Required<Omit<SettingsInput, "stripe_webhook_url">>;

function SettingsForm({ stored }: { stored: SettingsView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>({
    app_name: stored.app_name,
    contact_email: stored.contact_email,
    stripe_secret: "",
    stripe_publishable: stored.stripe_publishable,
    stripe_webhook_secret: "",
  });
  const [showSecret, setShowSecret] = useState(false);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const save = useMutation(
    trpc.settings.put.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.settings.get.queryKey(), saved);
        setDraft((current) => ({ ...current, stripe_secret: "", stripe_webhook_secret: "" }));
      },
    }),
  );
  const errors = { ...fieldErrors(save.error), ...localErrors };
  const set = (field: keyof Draft) => (event: { target: { value: string } }) => {
    setDraft((current) => ({ ...current, [field]: event.target.value }));
    save.reset();
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    save.reset();
    const checked = ZSettingsInput.safeParse(draft);
    if (!checked.success) {
      setLocalErrors(issuesByPath(checked.error));
      return;
    }
    setLocalErrors({});
    save.mutate(draft);
  }

  const fieldError = (field: string) =>
    errors[field] && (
      <span className="field-error" id={`${field}-error`}>
        {errors[field]}
      </span>
    );
  const described = (field: string) => (errors[field] ? `${field}-error` : undefined);

  return (
    <form onSubmit={submit} noValidate className="stack panel" aria-labelledby="settings-title">
      <h2 id="settings-title">App and Stripe</h2>
      <label>
        App Name
        <input
          name="app_name"
          value={draft.app_name}
          onChange={set("app_name")}
          aria-describedby={described("app_name")}
        />
        {fieldError("app_name")}
      </label>
      <label>
        Contact Email
        <input
          type="email"
          name="contact_email"
          value={draft.contact_email}
          onChange={set("contact_email")}
          aria-describedby={described("contact_email")}
        />
        {fieldError("contact_email")}
      </label>
      <label>
        Stripe Secret Key
        <span className="secret-field">
          <input
            type={showSecret ? "text" : "password"}
            name="stripe_secret"
            autoComplete="off"
            spellCheck={false}
            placeholder={stored.stripe_secret || "sk_live_…"}
            value={draft.stripe_secret}
            onChange={set("stripe_secret")}
            aria-describedby={described("stripe_secret") ?? "stripe_secret-hint"}
          />
          <button
            type="button"
            className="secondary"
            aria-pressed={showSecret}
            onClick={() => setShowSecret((shown) => !shown)}
          >
            {showSecret ? "Hide" : "Show"}
          </button>
        </span>
        <small id="stripe_secret-hint">
          {stored.stripe_secret
            ? `Saved key: ${stored.stripe_secret}. Leave blank to keep it.`
            : "No key saved yet."}
        </small>
        {fieldError("stripe_secret")}
      </label>
      <label>
        Stripe Publishable Key
        <input
          name="stripe_publishable"
          autoComplete="off"
          spellCheck={false}
          placeholder="pk_live_…"
          value={draft.stripe_publishable}
          onChange={set("stripe_publishable")}
          aria-describedby={described("stripe_publishable")}
        />
        {fieldError("stripe_publishable")}
      </label>
      <label>
        Stripe Webhook Signing Secret
        <input
          type="password"
          name="stripe_webhook_secret"
          autoComplete="off"
          spellCheck={false}
          placeholder={stored.stripe_webhook_secret || "whsec_…"}
          value={draft.stripe_webhook_secret}
          onChange={set("stripe_webhook_secret")}
          aria-describedby={described("stripe_webhook_secret") ?? "stripe_webhook_secret-hint"}
        />
        <small id="stripe_webhook_secret-hint">
          {stored.stripe_webhook_secret
            ? `Saved secret: ${stored.stripe_webhook_secret}. Leave blank to keep it.`
            : "No signing secret saved yet."}
        </small>
        {fieldError("stripe_webhook_secret")}
      </label>
      {stored.stripe_webhook_url && (
        <label>
          Stripe Webhook URL
          <input name="stripe_webhook_url" readOnly value={stored.stripe_webhook_url} />
        </label>
      )}
      <button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save Settings"}
      </button>
      {save.isSuccess && (
        <p className="message success" role="status">
          {MESSAGES.settingsSaved}
        </p>
      )}
      <ErrorMessage error={save.error} />
    </form>
  );
}
