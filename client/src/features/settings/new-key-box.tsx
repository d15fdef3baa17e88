/** A new API key, shown this once in a box that copies it. */
import { useState } from "react";
import type { ApiKeyCreated } from "../../../../shared/schemas/api-keys.ts";

export function NewKeyBox({ created, onDone }: { created: ApiKeyCreated; onDone: () => void }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  }

  return (
    <section className="new-key" aria-label="New API key">
      <p className="message success">
        <strong>Copy it now, it will not be shown again.</strong> Key “{created.name}” was created;
        Warden keeps only a hash of it.
      </p>
      <div className="secret-field">
        <input
          name="new_api_key"
          aria-label="Your new API key"
          readOnly
          spellCheck={false}
          value={created.key}
          onFocus={(event) => event.target.select()}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <span role="status" className="save-status">
        {copied === "yes" ? "Copied." : copied === "no" ? "Select the key and copy it." : ""}
      </span>
      <button type="button" className="secondary" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}
