/**
 * Importing a configuration file: it is read and checked here with the server's own schema,
 * the server says what it would change per section and what to know first (two-factor
 * sign-in to set up at once, data a shorter retention deletes, new endpoints), and only a
 * confirmation imports it. New webhook endpoints' signing secrets are shown once.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ChangeEvent, useRef, useState } from "react";
import {
  type ConfigChanges,
  type ConfigImported,
  ZAccountConfigInput,
} from "../../../../shared/schemas/account-config.ts";
import {
  type ImportPreview,
  MUST_ENROL_WARNING,
} from "../../../../shared/schemas/import-preview.ts";
import { ErrorMessage } from "../../components/error-message.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";

const SECTION_NAMES: Record<keyof ConfigChanges, string> = {
  rules: "Rules",
  templates: "Templates",
  rule_settings: "Rule settings",
  score_thresholds: "Score thresholds",
  blocklist: "Block lists",
  allow_list: "Allow list",
  allowed_origins: "Allowed origins",
  settings: "Settings",
  webhook_endpoints: "Webhook endpoints",
  security: "Security",
  retention: "Data retention",
};

export function ChangeList({ changes }: { changes: ConfigChanges }) {
  const sections = (Object.keys(SECTION_NAMES) as (keyof ConfigChanges)[]).filter(
    (section) => changes[section].length > 0,
  );
  if (sections.length === 0) return <p role="status">Nothing would change: it is all the same.</p>;
  return (
    <dl className="account-changes" aria-label="Changes">
      {sections.map((section) => (
        <div key={section}>
          <dt>{SECTION_NAMES[section]}</dt>
          {changes[section].map((line) => (
            <dd key={line}>{line}</dd>
          ))}
        </div>
      ))}
    </dl>
  );
}

export function ImportConfig() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<{ name: string; doc: unknown; preview: ImportPreview } | null>(
    null,
  );
  const previewImport = useMutation(trpc.account.previewImport.mutationOptions());
  const [readError, setReadError] = useState<string | null>(null);
  const [done, setDone] = useState<ConfigImported | null>(null);
  // Whether the file being imported turns on two-factor sign-in for this person (its preview
  // said so).
  const mustEnrol = useRef(false);
  // Set while the import's answer waits to be read before the pages re-read (see below).
  const [holding, setHolding] = useState<{ enrol: boolean } | null>(null);
  // Every section may have changed: the pages re-read what they show.
  const reread = () => {
    setHolding(null);
    void queryClient.invalidateQueries();
  };
  const importConfig = useMutation(
    trpc.account.importConfig.mutationOptions({
      onSuccess: (answer) => {
        setDone(answer);
        setFile(null);
        // Re-reading the session of a person who must now set up two-factor sign-in sends
        // them to do it, and secrets shown once would go with the page: both wait for a click.
        const enrol = mustEnrol.current;
        if (enrol || answer.webhook_secrets.length > 0) setHolding({ enrol });
        else reread();
      },
    }),
  );

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const picked = event.target.files?.[0];
    event.target.value = "";
    if (holding) reread();
    setFile(null);
    setDone(null);
    setReadError(null);
    importConfig.reset();
    if (!picked) return;
    try {
      const doc: unknown = JSON.parse(await picked.text());
      const parsed = ZAccountConfigInput.safeParse(doc);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        setReadError(`${issue?.path.join(".") || "The file"}: ${issue?.message ?? "not valid"}`);
        return;
      }
      const preview = await previewImport.mutateAsync(doc as never);
      setFile({ name: picked.name, doc, preview });
    } catch (caught) {
      setReadError(caught instanceof SyntaxError ? "This file is not JSON." : errorMessage(caught));
    }
  }

  return (
    <div className="stack">
      <h3>Import configuration</h3>
      <p className="config-note">
        A file exported from this or another Warden. Each section it carries replaces this
        account's; allow-list entries are added or renewed, and webhook endpoints are added (each
        with a new signing secret) unless one with the same URL and events is here already.
      </p>
      <label>
        Configuration file
        <input type="file" name="config_file" accept="application/json,.json" onChange={pick} />
      </label>
      {readError && (
        <p className="message error" role="alert">
          {readError}
        </p>
      )}
      {file && (
        <section className="stack account-preview" aria-label="What the import changes">
          {file.preview.warnings.length > 0 && (
            <ul className="account-warnings" role="note" aria-label="Before you import">
              {file.preview.warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          )}
          <p>Importing {file.name} changes:</p>
          <ChangeList changes={file.preview.changes} />
          <div className="account-actions">
            <button
              type="button"
              disabled={importConfig.isPending}
              onClick={() => {
                mustEnrol.current = file.preview.warnings.includes(MUST_ENROL_WARNING);
                importConfig.mutate(file.doc as never);
              }}
            >
              {importConfig.isPending ? "Importing…" : "Import these changes"}
            </button>
            <button type="button" className="secondary" onClick={() => setFile(null)}>
              Cancel
            </button>
          </div>
        </section>
      )}
      <ErrorMessage error={importConfig.error} />
      {done && <Imported answer={done} holding={holding} onRead={reread} />}
    </div>
  );
}

function Imported({
  answer,
  holding,
  onRead,
}: {
  answer: ConfigImported;
  /** Set while the pages wait for the person to read this (secrets, two-factor to set up). */
  holding: { enrol: boolean } | null;
  onRead: () => void;
}) {
  return (
    <div className="stack" role="status">
      <p className="message success">Configuration imported.</p>
      <ChangeList changes={answer.changes} />
      {answer.webhook_secrets.length > 0 && (
        <div className="stack">
          <p>
            New webhook endpoints and their signing secrets, shown only now: copy each into the
            receiving system.
          </p>
          <ul className="account-secrets">
            {answer.webhook_secrets.map((endpoint) => (
              <li key={endpoint.id}>
                {endpoint.url}: <code>{endpoint.secret}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {holding && (
        <div>
          <button type="button" onClick={onRead}>
            {holding.enrol
              ? answer.webhook_secrets.length > 0
                ? "I have copied them: set up two-factor sign-in"
                : "Set up two-factor sign-in"
              : "I have copied them"}
          </button>
        </div>
      )}
    </div>
  );
}
