/**
 * Data requests: answer one of your customers' "what do you hold about me?" and "delete it"
 * (docs/privacy.md). Find a person by email, user id, device id or IP; see how many stored rows
 * hold them, by source; download everything as JSON; and, as an owner or admin, erase it after
 * a two-step confirmation. Analysts may find and download; viewers see why they may not.
 */
import { skipToken, type UseQueryResult, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  END_USER_SELECTORS,
  type EndUserSelector,
  type ErasurePreview,
  type ErasureResult,
} from "../../../../shared/schemas/end-users.ts";
import { RoleNote, useCan, useRoleReason } from "../../components/editable.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { useSession } from "../../lib/session.ts";
import { errorMessage, fieldErrors, useTRPC } from "../../lib/trpc.ts";
import { withArticle } from "../team/team-format.ts";
import { CountsTable } from "./counts-table.tsx";
import {
  checkSelector,
  describeSelector,
  EMPTY_FORM,
  SELECTOR_LABELS,
  type SelectorForm,
} from "./data-request-format.ts";
import { DownloadExport } from "./download-export.tsx";
import { EraseFlow } from "./erase-flow.tsx";
import "../../components/console.css";
import "./privacy.css";

export default function DataRequestsPage() {
  return (
    <SignedIn>
      <h1>Data requests</h1>
      <p className="dr-intro">
        When one of your customers asks what you hold about them, or asks you to delete it: find
        them here by any of their email, user id, device id, IP address or card fingerprint,
        download everything Warden stores about them as JSON, or erase it.
      </p>
      <DataRequests />
    </SignedIn>
  );
}

/** The person asked about; `asked` counts the Finds, so each one starts the steps afresh. */
type Asked = { selector: EndUserSelector; asked: number };

function DataRequests() {
  const { user } = useSession();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const mayFind = useCan("review");
  const mayErase = useCan("configure");
  const [asked, setAsked] = useState<Asked | null>(null);
  const preview = useQuery(
    trpc.endUsers.preview.queryOptions(asked && mayFind ? asked.selector : skipToken, {
      staleTime: 0,
      retry: false,
    }),
  );
  if (!user) return null;
  if (!mayFind) {
    return (
      <p className="config-note read-only-note" role="note">
        You are {withArticle(user.role).toLowerCase()} in this account: finding, exporting and
        erasing an end user's data needs an analyst, an admin or an owner.
      </p>
    );
  }
  return (
    <>
      <FindForm
        serverErrors={fieldErrors(preview.error)}
        onFind={(selector) => {
          // Asking again about the same person reads afresh (after an erasure, say).
          void queryClient.invalidateQueries({
            queryKey: trpc.endUsers.preview.queryKey(selector),
          });
          setAsked((last) => ({ selector, asked: (last?.asked ?? 0) + 1 }));
        }}
      />
      {asked && (
        <Findings
          key={asked.asked}
          selector={asked.selector}
          preview={preview}
          mayErase={mayErase}
          onAsk={(selector) => setAsked((last) => ({ selector, asked: (last?.asked ?? 0) + 1 }))}
        />
      )}
    </>
  );
}

function FindForm(props: {
  serverErrors: Record<string, string>;
  onFind: (selector: EndUserSelector) => void;
}) {
  const [form, setForm] = useState<SelectorForm>(EMPTY_FORM);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [edited, setEdited] = useState(false);
  // The server's 400 names the fields too (the same schema): shown until the form is edited.
  const errors = edited ? localErrors : { ...props.serverErrors, ...localErrors };

  function submit(event: FormEvent) {
    event.preventDefault();
    setEdited(false);
    const checked = checkSelector(form);
    if (!checked.ok) {
      setLocalErrors(checked.errors);
      return;
    }
    setLocalErrors({});
    props.onFind(checked.selector);
  }

  return (
    <section className="panel dr-panel" aria-labelledby="dr-find-title">
      <h2 id="dr-find-title">Find a person</h2>
      <p className="config-note">
        Give at least one. Rows holding any of the values given are found.
      </p>
      <form className="dr-form" onSubmit={submit} noValidate aria-label="Find a person">
        {END_USER_SELECTORS.map((key) => (
          <label key={key}>
            {SELECTOR_LABELS[key]}
            <input
              name={key}
              type={key === "email" ? "email" : "text"}
              autoComplete="off"
              spellCheck={false}
              value={form[key]}
              aria-invalid={errors[key] ? true : undefined}
              aria-describedby={errors[key] ? `dr-${key}-error` : undefined}
              onChange={(event) => {
                setForm({ ...form, [key]: event.target.value });
                setLocalErrors({});
                setEdited(true);
              }}
            />
            {errors[key] && (
              <span className="field-error" id={`dr-${key}-error`}>
                {errors[key]}
              </span>
            )}
          </label>
        ))}
        <div className="dr-find">
          <button type="submit">Find</button>
        </div>
      </form>
    </section>
  );
}

type Preview = UseQueryResult<ErasurePreview, unknown>;

function Findings(props: {
  selector: EndUserSelector;
  preview: Preview;
  mayErase: boolean;
  onAsk: (selector: EndUserSelector) => void;
}) {
  const { preview } = props;
  // Erasing needs the configure permission (as on the server): an analyst is told so.
  const eraseDenied = useRoleReason("configure");
  const [erased, setErased] = useState<ErasureResult | null>(null);
  const fieldsNamed = Object.keys(fieldErrors(preview.error)).length > 0;

  return (
    <>
      <section className="panel dr-panel" aria-labelledby="dr-held-title">
        <h2 id="dr-held-title">What Warden holds</h2>
        <p className="dr-who">About {describeSelector(props.selector)}</p>
        {preview.isError ? (
          <p className="message error" role="alert">
            {fieldsNamed ? "Check the fields above: " : "Could not look this person up: "}
            {errorMessage(preview.error)}
          </p>
        ) : !preview.data || preview.isFetching ? (
          <p className="loading" role="status">
            Looking…
          </p>
        ) : (
          <>
            <Reach selector={props.selector} preview={preview.data} onAsk={props.onAsk} />
            <CountsTable counts={preview.data.counts} caption="Stored rows holding this person" />
            <div className="dr-actions">
              <DownloadExport selector={props.selector} />
              {props.mayErase ? (
                <EraseFlow
                  selector={props.selector}
                  preview={preview.data}
                  onErased={(result) => {
                    setErased(result);
                    void preview.refetch();
                  }}
                />
              ) : (
                <RoleNote reason={eraseDenied} />
              )}
            </div>
          </>
        )}
      </section>
      {erased && <ErasureDone result={erased} />}
    </>
  );
}

/**
 * Whom the request reaches beyond the values asked for: the email's other spellings (matched
 * with it), the emails and user ids the person's screenings carried (only when the merchant
 * ticks them: an end user can forge them), and devices and cards to add.
 */
function Reach(props: {
  selector: EndUserSelector;
  preview: ErasurePreview;
  onAsk: (selector: EndUserSelector) => void;
}) {
  const { spellings, widening, widened, offered } = props.preview;
  const wideningCount = widening.emails.length + widening.user_ids.length;
  return (
    <div className="dr-reach">
      {spellings.length > 0 && (
        <p>
          Also matched as the same inbox: <code>{spellings.join(", ")}</code>
        </p>
      )}
      {wideningCount > 0 && (
        <label className="dr-widen">
          <input
            type="checkbox"
            name="widen"
            checked={widened}
            onChange={(event) => props.onAsk({ ...props.selector, widen: event.target.checked })}
          />
          <span>
            Also include what this person's screenings carried beside it:{" "}
            <code>{[...widening.emails, ...widening.user_ids].join(", ")}</code>. Anyone can sign up
            with someone else's email, so tick this only if you know these are the same person.
          </span>
        </label>
      )}
      {(offered.devices.length > 0 || offered.cards.length > 0) && (
        <p>
          Also seen on their rows:{" "}
          {offered.devices.map((device) => (
            <button
              key={`d-${device}`}
              type="button"
              className="secondary"
              onClick={() => props.onAsk({ ...props.selector, device_id: device })}
            >
              Add device {device}
            </button>
          ))}
          {offered.cards.map((card) => (
            <button
              key={`c-${card}`}
              type="button"
              className="secondary"
              onClick={() => props.onAsk({ ...props.selector, card_fingerprint: card })}
            >
              Add card {card}
            </button>
          ))}
        </p>
      )}
    </div>
  );
}

function ErasureDone({ result }: { result: ErasureResult }) {
  return (
    <section className="panel dr-panel dr-done" aria-labelledby="dr-done-title">
      <h2 id="dr-done-title">Erased</h2>
      <p className="message success" role="status">
        Erasure <code>{result.erasure_id}</code> done at{" "}
        {new Date(result.erased_at).toLocaleString()}. It is in the audit log, without the values
        erased.
      </p>
      <CountsTable
        counts={result.counts}
        caption="Rows erased or made unreadable"
        kept={["identities"]}
      />
      {result.kept.length > 0 && (
        <>
          <h3>Kept</h3>
          <ul className="dr-kept">
            {result.kept.map((sentence) => (
              <li key={sentence}>{sentence}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
