/**
 * A secret Warden shows this once (a new API key, a webhook signing secret): a copy button, and
 * it stays on screen until the merchant says they have it. Leaving the page first asks.
 */
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useBlocker } from "react-router";
import "./console.css";
import "./secret-once.css";

type Props = {
  /** Names the box ("New API key"). */
  title: string;
  /** Names the field that holds the secret ("Your new API key"). */
  fieldLabel: string;
  name: string;
  secret: string;
  /** What was created and why it is shown once. */
  children: ReactNode;
  onDone: () => void;
  doneLabel?: string;
};

export function SecretOnce({
  title,
  fieldLabel,
  name,
  secret,
  children,
  onDone,
  doneLabel = "I have copied it",
}: Props) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"yes" | "selected" | null>(null);
  const leaving = useBlocker(true);
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("yes");
    } catch {
      // No clipboard here (plain http on another host, or permission refused): select the
      // text, try the old copy command, and otherwise leave it selected for Ctrl+C.
      field.current?.focus();
      field.current?.select();
      setCopied(document.execCommand("copy") ? "yes" : "selected");
    }
  }

  return (
    <section className="secret-once" aria-label={title}>
      <div className="message success">{children}</div>
      <div className="secret-field">
        <input
          ref={field}
          name={name}
          aria-label={fieldLabel}
          readOnly
          spellCheck={false}
          value={secret}
          onFocus={(event) => event.target.select()}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <span role="status" className="save-status">
        {copied === "yes"
          ? "Copied."
          : copied === "selected"
            ? "Selected: press Ctrl+C (⌘C on a Mac) to copy it."
            : ""}
      </span>
      {leaving.state === "blocked" ? (
        <div className="secret-leave" role="alert">
          <span>Leave without it? It cannot be shown again.</span>
          <button type="button" onClick={() => leaving.reset()}>
            Stay
          </button>
          <button type="button" className="secondary" onClick={() => leaving.proceed()}>
            Leave
          </button>
        </div>
      ) : (
        <button type="button" className="secondary secret-done" onClick={onDone}>
          {doneLabel}
        </button>
      )}
    </section>
  );
}
