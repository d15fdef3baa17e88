/**
 * The review queue: every open `review`, oldest first, with its reasons and what it shares
 * with earlier events. Approve / Deny with an optional note; j / k move, a / d settle the
 * selected item; filters by rule, kind (screening or charge), screening type and age, and a
 * bulk action for the filtered set.
 */
import { useInfiniteQuery, useMutation } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { ReviewFilters, ReviewItem } from "../../../../shared/schemas/review.ts";
import { LoadMore } from "../../components/load-more.tsx";
import { LoadError } from "../../components/save-status.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { BulkBar } from "./review-bulk-bar.tsx";
import { ReviewCard } from "./review-card.tsx";
import { QueueFilters } from "./review-filters.tsx";
import { useInvalidateQueue } from "./use-invalidate-queue.ts";
import { useQueueKeys } from "./use-queue-keys.ts";
import "./review.css";

const PAGE_SIZE = 50;

export default function ReviewPage() {
  return (
    <SignedIn>
      <h1>Review</h1>
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
  const [error, setError] = useState<string | null>(null);
  const invalidate = useInvalidateQueue();
  const list = useInfiniteQuery(
    trpc.review.queue.infiniteQueryOptions(
      { limit: PAGE_SIZE, ...filters },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, staleTime: 0 },
    ),
  );
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const settle = useMutation(
    trpc.review.settle.mutationOptions({
      onSuccess: () => {
        setError(null);
        return invalidate();
      },
      onError: (e) => setError(errorMessage(e)),
    }),
  );
  const decide = useCallback(
    (item: ReviewItem | undefined, decision: "approve" | "deny") => {
      if (!item || settle.isPending) return;
      settle.mutate({
        id: item.id,
        kind: item.kind,
        decision,
        note: notes[item.id] || undefined,
        always_allow: decision === "approve" && alwaysAllow[item.id] ? true : undefined,
      });
    },
    [settle, notes, alwaysAllow],
  );

  const current = Math.min(selected, Math.max(0, items.length - 1));
  useQueueKeys(items, current, setSelected, decide);

  return (
    <section aria-label="Review queue">
      <QueueFilters
        value={filters}
        onChange={(f) => {
          setFilters(f);
          setSelected(0);
        }}
      />
      <p className="rv-help">
        Keys: <kbd>j</kbd>/<kbd>k</kbd> next / previous, <kbd>a</kbd> approve, <kbd>d</kbd> deny.
      </p>
      {error && (
        <p className="message error" role="alert">
          {error}
        </p>
      )}
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
          <BulkBar filters={filters} shown={items.length} more={list.hasNextPage} />
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
                busy={settle.isPending}
              />
            ))}
          </ol>
          <LoadMore
            shown={items.length}
            noun={["item", "items"]}
            hasNextPage={list.hasNextPage}
            isFetchingNextPage={list.isFetchingNextPage}
            fetchNextPage={list.fetchNextPage}
          />
        </>
      )}
    </section>
  );
}
