/**
 * One item of the review queue: what it is, its reasons, what it shares with earlier events, a
 * screening's risk score and what it adds up from, the accounts linked to it, its label, and
 * Approve / Deny with a note (and "always allow this user"); the page holds either for a few
 * seconds with an Undo before it is sent (use-pending-settle.ts).
 */
import { useMutation } from "@tanstack/react-query";
import type { ReviewItem } from "../../../../shared/schemas/review.ts";
import { useCan } from "../../components/editable.tsx";
import { ruleLabel } from "../../lib/rule-format.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { LinkedAccounts } from "../screenings/linked-accounts.tsx";
import { ScoreBreakdown } from "../screenings/score-breakdown.tsx";
import { ScoreNoteLine } from "../screenings/screening-reasons.tsx";
import { type RowSelection, SelectBox } from "./bulk-labels.tsx";
import { LabelChoice } from "./label-buttons.tsx";
import { formatAge, itemTitle, sharedSentence } from "./review-format.ts";
import { useInvalidateQueue } from "./use-invalidate-queue.ts";

export function ReviewCard(props: {
  item: ReviewItem;
  selected: boolean;
  note: string;
  alwaysAllow: boolean;
  onAlwaysAllow(on: boolean): void;
  onNote(note: string): void;
  onSelect(): void;
  onDecide(decision: "approve" | "deny"): void;
  /** The items ticked for a bulk label. */
  selection: RowSelection;
}) {
  const { item } = props;
  const canReview = useCan("review");
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
        <SelectBox
          selection={props.selection}
          subject={{ kind: item.kind, id: item.id }}
          name={`${itemTitle(item)} ${item.email ?? item.user_id ?? ""}`.trim()}
        />
        <strong>{itemTitle(item)}</strong>
        <span>{item.email ?? item.user_id ?? "unknown user"}</span>
        {item.kind === "charge" && <code className="rv-muted">{item.id}</code>}
        {item.ip && <span className="rv-muted">{item.ip}</span>}
        <span className="rv-muted">waiting {formatAge(item.created_at, Date.now())}</span>
        {item.kind === "charge" && item.score !== null && (
          <span className="rv-score">risk score {item.score}</span>
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
      {item.kind === "screening" && item.score !== null && (
        <ScoreBreakdown score={item.score} contributions={item.contributions} />
      )}
      {item.kind === "screening" && item.type !== null && item.score !== null && (
        <ScoreNoteLine
          row={{
            type: item.type,
            score: item.score,
            reasons: item.reasons,
            contributions: item.contributions,
          }}
        />
      )}
      {item.kind === "screening" && (
        // The stored summary's line at once; the list is read for the selected card (and
        // its line, for a screening stored without a summary) or once opened.
        <LinkedAccounts
          id={item.id}
          createdAt={item.created_at}
          summary={item.linked}
          load={props.selected}
          collapsed
        />
      )}
      {/* A viewer reads the queue; its controls are off (the server refuses them anyway). */}
      <fieldset
        className="rv-controls"
        disabled={!canReview}
        title={canReview ? undefined : "Your role in this account does not allow reviewing."}
      >
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
          <button type="button" onClick={() => props.onDecide("approve")}>
            Approve
          </button>
          <button type="button" className="danger" onClick={() => props.onDecide("deny")}>
            Deny
          </button>
        </div>
      </fieldset>
    </li>
  );
}

/** The item's label from the queue's page; a new one refetches the queue. */
function LabelRow({ item }: { item: ReviewItem }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateQueue();
  const add = useMutation(trpc.labels.add.mutationOptions({ onSuccess: () => invalidate() }));
  return (
    <LabelChoice
      className="rv-label"
      current={item.label}
      busy={add.isPending}
      error={add.isError ? errorMessage(add.error) : null}
      onLabel={(value) =>
        add.mutate({ subject_kind: item.kind, subject_id: item.id, label: value })
      }
    />
  );
}
