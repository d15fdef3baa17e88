/**
 * The review queue: every open `review`, oldest first, with its reasons and what it shares
 * with earlier events. Approve / Deny with an optional note; j / k move, a / d settle the
 * selected item; filters by rule, kind (screening or charge), screening type and age, and a
 * bulk action for the filtered set.
 */
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { RULE_CATALOG } from "../../../../shared/catalog/rules.ts";
import type { LabelValue } from "../../../../shared/schemas/labels.ts";
import type { ReviewFilters, ReviewItem } from "../../../../shared/schemas/review.ts";
import { SCREEN_TYPES } from "../../../../shared/schemas/screening.ts";
import { LoadMore } from "../../components/load-more.tsx";
import { LoadError } from "../../components/save-status.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { ruleLabel } from "../../lib/rule-format.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { formatAge, isTyping, itemTitle, sharedSentence, step } from "./review-format.ts";
import "./review.css";

const PAGE_SIZE = 50;
const AGES: [number, string][] = [
  [1, "Over 1 hour"],
  [24, "Over 1 day"],
  [24 * 7, "Over 1 week"],
];

export default function ReviewPage() {
  return (
    <SignedIn>
      <h1>Review</h1>
      <Queue />
    </SignedIn>
  );
}

function useInvalidateQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.review.pathKey() });
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
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const selectedRef = useRef(current);
  selectedRef.current = current;
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      const current = itemsRef.current;
      if (event.key === "j") setSelected((i) => step(i, 1, current.length));
      else if (event.key === "k") setSelected((i) => step(i, -1, current.length));
      else if (event.key === "a") decide(current[selectedRef.current], "approve");
      else if (event.key === "d") decide(current[selectedRef.current], "deny");
      else return;
      event.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [decide]);
  const currentId = items[current]?.id;
  useEffect(() => {
    if (currentId)
      document.getElementById(`rv-${currentId}`)?.scrollIntoView?.({ block: "nearest" });
  }, [currentId]);

  return (
    <section aria-label="Review queue">
      <Filters
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

function Filters({
  value,
  onChange,
}: {
  value: ReviewFilters;
  onChange: (f: ReviewFilters) => void;
}) {
  const set = (key: keyof ReviewFilters, raw: string) =>
    onChange({
      ...value,
      [key]: raw === "" ? undefined : key === "older_than_hours" ? Number(raw) : raw,
    });
  return (
    <form className="rv-filters" aria-label="Filter the queue" onSubmit={(e) => e.preventDefault()}>
      <label>
        Rule
        <select name="rule" value={value.rule ?? ""} onChange={(e) => set("rule", e.target.value)}>
          <option value="">All</option>
          {RULE_CATALOG.map((r) => (
            <option key={r.key} value={r.key}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Kind
        <select
          name="kind"
          value={value.kind ?? ""}
          onChange={(e) =>
            onChange({
              ...value,
              kind: (e.target.value || undefined) as ReviewFilters["kind"],
              // A charge has no screening type: choosing charges clears the type.
              type: e.target.value === "charge" ? undefined : value.type,
            })
          }
        >
          <option value="">All</option>
          <option value="screening">Screenings</option>
          <option value="charge">Charges</option>
        </select>
      </label>
      <label>
        Type
        <select
          name="type"
          value={value.type ?? ""}
          disabled={value.kind === "charge"}
          onChange={(e) => set("type", e.target.value)}
        >
          <option value="">All</option>
          {SCREEN_TYPES.map((t) => (
            <option key={t} value={t}>
              {t.replaceAll("_", " ")}
            </option>
          ))}
        </select>
      </label>
      <label>
        Age
        <select
          name="older_than_hours"
          value={value.older_than_hours ?? ""}
          onChange={(e) => set("older_than_hours", e.target.value)}
        >
          <option value="">Any</option>
          {AGES.map(([hours, text]) => (
            <option key={hours} value={hours}>
              {text}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}

/** Settles every open item that matches the filters (not only the ones loaded). */
function BulkBar({
  filters,
  shown,
  more,
}: {
  filters: ReviewFilters;
  shown: number;
  more: boolean;
}) {
  const trpc = useTRPC();
  const invalidate = useInvalidateQueue();
  const [done, setDone] = useState<string | null>(null);
  const bulk = useMutation(
    trpc.review.bulk.mutationOptions({
      onSuccess: (result, input) => {
        setDone(`${input.decision === "approve" ? "Approved" : "Denied"} ${result.settled}.`);
        return invalidate();
      },
    }),
  );
  const what = more ? `all ${shown}+ matching` : `all ${shown} matching`;
  const run = (decision: "approve" | "deny") => {
    if (window.confirm(`${decision === "approve" ? "Approve" : "Deny"} ${what} items?`)) {
      bulk.mutate({ filters, decision });
    }
  };
  return (
    <fieldset className="rv-bulk" aria-label="Bulk action">
      <span>For {what}:</span>
      <button
        type="button"
        className="secondary"
        disabled={bulk.isPending}
        onClick={() => run("approve")}
      >
        Approve all
      </button>
      <button
        type="button"
        className="secondary"
        disabled={bulk.isPending}
        onClick={() => run("deny")}
      >
        Deny all
      </button>
      <span role="status">{bulk.isError ? errorMessage(bulk.error) : done}</span>
    </fieldset>
  );
}

function ReviewCard(props: {
  item: ReviewItem;
  selected: boolean;
  note: string;
  busy: boolean;
  alwaysAllow: boolean;
  onAlwaysAllow(on: boolean): void;
  onNote(note: string): void;
  onSelect(): void;
  onDecide(decision: "approve" | "deny"): void;
}) {
  const { item } = props;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: j/k select from the keyboard.
    <li
      id={`rv-${item.id}`}
      className={`rv-card${props.selected ? " selected" : ""}`}
      aria-current={props.selected ? "true" : undefined}
      data-id={item.id}
      onClick={props.onSelect}
    >
      <div className="rv-head">
        <strong>{itemTitle(item)}</strong>
        <span>{item.email ?? item.user_id ?? "unknown user"}</span>
        {item.kind === "charge" && <code className="rv-muted">{item.id}</code>}
        {item.ip && <span className="rv-muted">{item.ip}</span>}
        <span className="rv-muted">waiting {formatAge(item.created_at, Date.now())}</span>
        {item.score !== null && (
          <span className="rv-score">
            {item.kind === "charge" ? "risk score" : "score"} {item.score}
          </span>
        )}
      </div>
      <ul className="rv-reasons" aria-label="Reasons">
        {item.reasons.map((r) => (
          <li key={`${r.rule}-${r.message}`}>
            <strong>{ruleLabel(r.rule)}</strong>: {r.message}
          </li>
        ))}
      </ul>
      {item.shared.length > 0 && (
        <ul className="rv-shared" aria-label="Shared identity">
          {item.shared.map((s) => (
            <li key={s.kind} className={s.fraud > 0 ? "fraud" : ""}>
              {sharedSentence(s)}
            </li>
          ))}
        </ul>
      )}
      <LabelRow item={item} />
      <div className="rv-actions">
        <input
          aria-label="Note"
          placeholder="Note (optional)"
          value={props.note}
          maxLength={500}
          onChange={(e) => props.onNote(e.target.value)}
        />
        {(item.user_id || item.email) && (
          <label className="rv-always">
            <input
              type="checkbox"
              checked={props.alwaysAllow}
              onChange={(e) => props.onAlwaysAllow(e.target.checked)}
            />
            Always allow this user
          </label>
        )}
        <button type="button" disabled={props.busy} onClick={() => props.onDecide("approve")}>
          Approve
        </button>
        <button
          type="button"
          className="danger"
          disabled={props.busy}
          onClick={() => props.onDecide("deny")}
        >
          Deny
        </button>
      </div>
    </li>
  );
}

function LabelRow({ item }: { item: ReviewItem }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateQueue();
  const add = useMutation(trpc.labels.add.mutationOptions({ onSuccess: () => invalidate() }));
  const label = (value: LabelValue) =>
    add.mutate({ subject_kind: item.kind, subject_id: item.id, label: value });
  return (
    <div className="rv-label">
      <span>
        Label:{" "}
        <b data-label={item.label?.label ?? "none"}>
          {item.label ? `${item.label.label} (${item.label.who})` : "none"}
        </b>
      </span>
      <button
        type="button"
        className="secondary"
        disabled={add.isPending}
        onClick={() => label("fraud")}
      >
        Label fraud
      </button>
      <button
        type="button"
        className="secondary"
        disabled={add.isPending}
        onClick={() => label("legitimate")}
      >
        Label legitimate
      </button>
      {add.isError && <span role="alert">{errorMessage(add.error)}</span>}
    </div>
  );
}
