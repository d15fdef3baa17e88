/**
 * The review queue: every open `review`, oldest first, with its reasons and what it shares
 * with earlier events. Approve / Deny with an optional note; j / k move, a / d settle the
 * selected item, each held for a few seconds with an Undo (u) before it is sent; filters by
 * rule, kind (screening or charge), screening type and age, and a bulk action for the
 * filtered set.
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { ReviewFilters, ReviewItem } from "../../../../shared/schemas/review.ts";
import { useCan } from "../../components/editable.tsx";
import { LoadMore } from "../../components/load-more.tsx";
import { LoadError } from "../../components/save-status.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { LiveUpdates } from "../live/live-status.tsx";
import { BulkLabelBar, useRowSelection } from "./bulk-labels.tsx";
import { BulkBar } from "./review-bulk-bar.tsx";
import { ReviewCard } from "./review-card.tsx";
import { QueueFilters } from "./review-filters.tsx";
import { UndoStatus } from "./undo-status.tsx";
import { useInvalidateQueue } from "./use-invalidate-queue.ts";
import { takeUnsent, UNDO_MS, usePendingSettle } from "./use-pending-settle.ts";
import { useQueueKeys } from "./use-queue-keys.ts";
import "./review.css";

const PAGE_SIZE = 50;
const UNDO_SECONDS = UNDO_MS / 1000;

export default function ReviewPage() {
  return (
    <SignedIn>
      <h1>Review</h1>
      <LiveUpdates topics={["screenings", "charges", "review"]} />
      <Queue />
    </SignedIn>
  );
}

function Queue() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<ReviewFilters>({});
  const [selected, setSelected] = useState(0);
  const [notes, setNotes] = useState<Record<string, string>>({});
  const [alwaysAllow, setAlwaysAllow] = useState<Record<string, boolean>>({});
  // A settle lost after the page was last left is said first (use-pending-settle.ts).
  const [error, setError] = useState<string | null>(takeUnsent);
  const invalidate = useInvalidateQueue();
  const selection = useRowSelection();
  // What Approve all / Deny all did, kept here: the bar leaves with the last item it settled.
  const [bulkDone, setBulkDone] = useState<string | null>(null);
  const list = useInfiniteQuery(
    trpc.review.queue.infiniteQueryOptions(
      { limit: PAGE_SIZE, ...filters },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, staleTime: 0 },
    ),
  );
  const settle = usePendingSettle({
    onSent: () => {
      setError(null);
      return invalidate();
    },
    // Refused (say, another person settled it first): the error, and the queue read again.
    // Never sent (the server was down): the item stays listed, and the line says so.
    onError: (message, lost) => {
      setError(message);
      return lost ? undefined : invalidate();
    },
  });
  // A settled item leaves the list at once; the server hears of it when the undo window ends.
  const all = list.data?.pages.flatMap((page) => page.items) ?? [];
  const items = all.filter((item) => !settle.hidden.has(item.id));
  const { stage, undo } = settle;
  // A role that may not settle (a viewer) has no a / d keys and no hint about them.
  const mayReview = useCan("review");
  const decide = useCallback(
    (item: ReviewItem | undefined, decision: "approve" | "deny") => {
      if (!item || !mayReview) return;
      stage({ item, decision, note: notes[item.id], alwaysAllow: alwaysAllow[item.id] });
    },
    [stage, notes, alwaysAllow, mayReview],
  );
  // Undo puts the item back where it was and selects it again.
  const undoLast = useCallback(() => {
    const back = undo();
    if (!back) return;
    const shown = all.filter((item) => item.id === back.id || !settle.hidden.has(item.id));
    setSelected(
      Math.max(
        0,
        shown.findIndex((item) => item.id === back.id),
      ),
    );
  }, [undo, all, settle.hidden]);

  const current = Math.min(selected, Math.max(0, items.length - 1));
  useQueueKeys(items, current, setSelected, decide, undoLast);

  return (
    <section aria-label="Review queue">
      <QueueFilters
        value={filters}
        onChange={(f) => {
          setFilters(f);
          setSelected(0);
        }}
      />
      {mayReview && (
        <p className="rv-help">
          Keys: <kbd>j</kbd>/<kbd>k</kbd> next / previous, <kbd>a</kbd> approve, <kbd>d</kbd> deny,{" "}
          <kbd>u</kbd> undo (for {UNDO_SECONDS} seconds, before anything is sent).
        </p>
      )}
      <UndoStatus status={settle.status} onUndo={undoLast} />
      {error && (
        <p className="message error" role="alert">
          {error}
        </p>
      )}
      <p className="rv-bulk-done" role="status" data-bulk-done>
        {bulkDone && `${bulkDone}.`}
      </p>
      {list.isError ? (
        <LoadError what="the review queue" error={errorMessage(list.error)} />
      ) : list.isPending ? (
        <p className="loading">Loading…</p>
      ) : items.length === 0 ? (
        <p className="rv-empty">
          Nothing to review{Object.keys(filters).length ? " with these filters" : ""}.
        </p>
      ) : (
        <>
          <BulkBar
            filters={filters}
            shown={items.length}
            beforeRun={settle.flush}
            onDone={setBulkDone}
          />
          <BulkLabelBar
            selection={selection}
            shown={items.map((item) => ({ kind: item.kind, id: item.id }))}
            onChanged={invalidate}
          />
          <ol className="rv-list">
            {items.map((item, index) => (
              <ReviewCard
                key={item.id}
                item={item}
                selected={index === current}
                note={notes[item.id] ?? ""}
                onNote={(note) => setNotes((n) => ({ ...n, [item.id]: note }))}
                alwaysAllow={alwaysAllow[item.id] ?? false}
                onAlwaysAllow={(on) => setAlwaysAllow((a) => ({ ...a, [item.id]: on }))}
                onSelect={() => setSelected(index)}
                onDecide={(decision) => decide(item, decision)}
                selection={selection}
              />
            ))}
          </ol>
          <LoadMore shown={items.length} noun={["item", "items"]} list={list} />
        </>
      )}
    </section>
  );
}
