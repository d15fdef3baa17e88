/** The review queue's status line: what a key or button just did, with Undo while it can. */
import type { SettleStatus } from "./use-pending-settle.ts";

export function UndoStatus({ status, onUndo }: { status: SettleStatus; onUndo(): void }) {
  // Always in the page, so screen readers announce what appears in it.
  return (
    <div className="rv-toast" role="status">
      {status && (
        <p>
          <span>{status.text}.</span>
          {status.undo && (
            <button type="button" className="secondary" aria-keyshortcuts="u" onClick={onUndo}>
              Undo
            </button>
          )}
        </p>
      )}
    </div>
  );
}
