/**
 * Erasing a person, for owners and admins, in two steps: first what will be erased and what is
 * kept and why (the preview's `kept` sentences, decision 029), then typing ERASE to confirm.
 * The server checks the role again, and erases in one transaction.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type {
  EndUserSelector,
  ErasurePreview,
  ErasureResult,
} from "../../../../shared/schemas/end-users.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { CONFIRM_WORD, confirmsErasure, countRows } from "./data-request-format.ts";

type Step = "closed" | "review" | "confirm";

export function EraseFlow(props: {
  selector: EndUserSelector;
  preview: ErasurePreview;
  onErased: (result: ErasureResult) => void;
}) {
  const trpc = useTRPC();
  const [step, setStep] = useState<Step>("closed");
  const [typed, setTyped] = useState("");
  const erase = useMutation(
    trpc.endUsers.erase.mutationOptions({
      onSuccess: (result) => {
        setStep("closed");
        setTyped("");
        props.onErased(result);
      },
    }),
  );
  // The counting identities are kept (decision 029): the `kept` sentences say so and why.
  const held = countRows(props.preview.counts).filter(
    (row) => row.count > 0 && row.source !== "identities",
  );
  const cancel = () => {
    setStep("closed");
    setTyped("");
    erase.reset();
  };

  if (step === "closed") {
    return (
      <div>
        <button type="button" className="dr-danger" onClick={() => setStep("review")}>
          Erase…
        </button>
      </div>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (confirmsErasure(typed)) erase.mutate(props.selector);
  }

  return (
    <section className="dr-erase" aria-labelledby="dr-erase-title">
      <h3 id="dr-erase-title">Erase this person's data</h3>
      {step === "review" ? (
        <>
          {held.length === 0 ? (
            <p>Nothing stored holds this person's values in readable form.</p>
          ) : (
            <>
              <p>Every stored value that identifies them is deleted or irreversibly replaced:</p>
              <ul className="dr-will" aria-label="What will be erased">
                {held.map((row) => (
                  <li key={row.source}>
                    {row.label}: <strong>{row.count}</strong>
                  </li>
                ))}
              </ul>
            </>
          )}
          {props.preview.kept.length > 0 && (
            <>
              <p>What is kept, and why:</p>
              <ul className="dr-kept" aria-label="What is kept">
                {props.preview.kept.map((sentence) => (
                  <li key={sentence}>{sentence}</li>
                ))}
              </ul>
            </>
          )}
          {props.preview.not_searched.length > 0 && (
            <>
              <p>Not searched (no exact match can find it there):</p>
              <ul className="dr-kept" aria-label="Not searched">
                {props.preview.not_searched.map((sentence) => (
                  <li key={sentence}>{sentence}</li>
                ))}
              </ul>
            </>
          )}
          <p className="config-note">
            This cannot be undone. Backups your operator keeps are not changed.
          </p>
          <div className="dr-buttons">
            <button type="button" className="dr-danger" onClick={() => setStep("confirm")}>
              Continue
            </button>
            <button type="button" className="secondary" onClick={cancel}>
              Cancel
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} aria-label="Confirm the erasure" noValidate>
          <label>
            Type {CONFIRM_WORD} to confirm
            <input
              name="confirm"
              autoComplete="off"
              spellCheck={false}
              value={typed}
              disabled={erase.isPending}
              onChange={(event) => setTyped(event.target.value)}
            />
          </label>
          <div className="dr-buttons">
            <button
              type="submit"
              className="dr-danger"
              disabled={!confirmsErasure(typed) || erase.isPending}
            >
              {erase.isPending ? "Erasing…" : "Erase permanently"}
            </button>
            <button type="button" className="secondary" onClick={cancel} disabled={erase.isPending}>
              Cancel
            </button>
          </div>
          {erase.isPending && (
            <p className="dr-progress" role="status">
              Erasing: every table in one transaction. This can take a few seconds.
            </p>
          )}
        </form>
      )}
      {erase.error && (
        <p className="message error" role="alert">
          Nothing was erased: {errorMessage(erase.error)}
        </p>
      )}
    </section>
  );
}
