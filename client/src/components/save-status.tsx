/**
 * The line under an auto-saved list or a saved form: saving, "Saved" once the newest change is
 * stored, or the error that put the last change back.
 */
export function SaveStatus({
  saving,
  saved = false,
  error,
}: {
  saving: boolean;
  saved?: boolean;
  error: string | null;
}) {
  if (error) {
    return (
      <p className="message error" role="alert">
        Your change was not saved: {error}
      </p>
    );
  }
  const text = saving ? "Saving…" : saved ? "Saved" : "";
  return (
    <p className={text ? "save-status shown" : "save-status"} role="status">
      {text}
    </p>
  );
}

/** A load failure, shown instead of silently keeping defaults. */
export function LoadError({ what, error }: { what: string; error: string }) {
  return (
    <p className="message error" role="alert">
      Could not load {what}: {error}
    </p>
  );
}
