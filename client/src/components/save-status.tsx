/** The line under an auto-saved list: saving, or the error that put the last change back. */
export function SaveStatus({ saving, error }: { saving: boolean; error: string | null }) {
  if (error) {
    return (
      <p className="message error" role="alert">
        Your change was not saved: {error}
      </p>
    );
  }
  return (
    <p className="save-status" role="status">
      {saving ? "Saving…" : ""}
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
