/**
 * The ten recovery codes, shown this once: each signs in once in place of the authenticator
 * app. A download (a text file) and a copy, and they stay until the person says they saved them.
 */
import { useState } from "react";
import "../../components/secret-once.css";
import "./two-factor.css";

export const RECOVERY_FILE_NAME = "warden-recovery-codes.txt";

function download(codes: string[], email: string) {
  const text = [
    `Warden recovery codes for ${email}`,
    "Each code signs you in once if you cannot use your authenticator app.",
    "",
    ...codes,
    "",
  ].join("\n");
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = RECOVERY_FILE_NAME;
  link.click();
  URL.revokeObjectURL(url);
}

export function RecoveryCodes({
  codes,
  email,
  onDone,
}: {
  codes: string[];
  email: string;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <section className="recovery-codes" aria-label="Recovery codes">
      <p className="message success">
        Save these recovery codes somewhere safe. If you lose your phone, each one signs you in once
        instead of a code from the app. They are shown only now.
      </p>
      <ol className="recovery-code-list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="recovery-actions">
        <button type="button" className="secondary" onClick={() => download(codes, email)}>
          Download
        </button>
        <button type="button" className="secondary" onClick={copy}>
          Copy
        </button>
        <span role="status" className="save-status">
          {copied ? "Copied." : ""}
        </span>
      </div>
      <button type="button" onClick={onDone}>
        I saved them
      </button>
    </section>
  );
}
