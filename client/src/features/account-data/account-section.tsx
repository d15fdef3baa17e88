/**
 * Settings → Account: the account's configuration exported as one JSON file (owners and
 * admins), imported from such a file after showing what it changes (owners), and the account
 * deleted with all its data (owners; its name or "delete" and the password typed again).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Editable } from "../../components/editable.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { DeleteAccount } from "./delete-account.tsx";
import { ImportConfig } from "./import-config.tsx";
import "./account-data.css";

export function AccountSection() {
  return (
    <section className="panel stack account-data" aria-labelledby="account-data-title">
      <h2 id="account-data-title">Account</h2>
      <Editable need="configure">
        <ExportConfig />
      </Editable>
      <Editable need="own">
        <ImportConfig />
        <DeleteAccount />
      </Editable>
    </section>
  );
}

/** Downloads the configuration as warden-config-<date>.json. */
function ExportConfig() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      const doc = await queryClient.fetchQuery({
        ...trpc.account.exportConfig.queryOptions(),
        staleTime: 0,
      });
      const blob = new Blob([`${JSON.stringify(doc, null, 2)}\n`], { type: "application/json" });
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = `warden-config-${doc.exported_at.slice(0, 10)}.json`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="stack">
      <h3>Export configuration</h3>
      <p className="config-note">
        One JSON file with the rules, templates, rule settings, score thresholds, block and allow
        lists, allowed origins, settings, webhook endpoints, security and retention. It holds no
        secret: not the API keys, the Stripe keys or the webhook signing secrets; nor the team or
        any stored data.
      </p>
      <div>
        <button type="button" onClick={download} disabled={busy}>
          {busy ? "Exporting…" : "Export configuration"}
        </button>
      </div>
      {error && (
        <p className="message error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
