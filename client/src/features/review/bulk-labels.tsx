/**
 * Select and label, on Screenings and Review: tick rows (or every row shown), label them fraud
 * or legitimate as one batch (labels.bulk), and undo that batch in one click from the line
 * that confirms it, which stays until the next bulk label. A role that may not label sees the
 * buttons off with the reason (shared/team/roles.ts).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { BulkLabelResult } from "../../../../shared/schemas/bulk-labels.ts";
import { BULK_LABELS_MAX } from "../../../../shared/schemas/bulk-labels.ts";
import {
  LABELS,
  type LabelSubjectKind,
  type LabelValue,
} from "../../../../shared/schemas/labels.ts";
import { RoleNote, useRoleReason } from "../../components/editable.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { bulkLabelSentence, bulkUndoneSentence } from "./review-format.ts";
import "./label-buttons.css";

/** A subject a row stands for: its kind and id. */
export type Subject = { kind: LabelSubjectKind; id: string };

/** The ticked rows, by id. */
export function useRowSelection() {
  const [picked, setPicked] = useState<ReadonlyMap<string, Subject>>(() => new Map());
  const flip = useCallback((subject: Subject, on: boolean) => {
    setPicked((before) => {
      const after = new Map(before);
      if (on) after.set(subject.id, subject);
      else after.delete(subject.id);
      return after;
    });
  }, []);
  const setAll = useCallback((subjects: readonly Subject[], on: boolean) => {
    setPicked(on ? new Map(subjects.map((s) => [s.id, s])) : new Map());
  }, []);
  return { picked, flip, setAll };
}
export type RowSelection = ReturnType<typeof useRowSelection>;

/** A row's tick box. */
export function SelectBox({
  selection,
  subject,
  name,
}: {
  selection: RowSelection;
  subject: Subject;
  /** What the row is, for its accessible name ("Select signup jane@…"). */
  name: string;
}) {
  return (
    <input
      type="checkbox"
      className="bulk-select"
      data-select={subject.id}
      aria-label={`Select ${name}`}
      checked={selection.picked.has(subject.id)}
      onChange={(e) => selection.flip(subject, e.target.checked)}
      onClick={(e) => e.stopPropagation()}
    />
  );
}

type Done = { text: string; batches: string[]; undone: boolean };

export function BulkLabelBar({
  selection,
  shown,
  onChanged,
}: {
  selection: RowSelection;
  /** The rows on the page, for "Select all". */
  shown: readonly Subject[];
  /** Told after labels were added or undone (the page reads what it shows again). */
  onChanged?(): unknown;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const reason = useRoleReason("review");
  const [done, setDone] = useState<Done | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.labels.history.pathKey() }),
      onChanged?.(),
    ]);
  const bulk = useMutation(trpc.labels.bulk.mutationOptions());
  const undo = useMutation(trpc.labels.undo.mutationOptions());
  const picked = [...selection.picked.values()];
  const all = shown.length > 0 && shown.every((s) => selection.picked.has(s.id));
  const busy = bulk.isPending || undo.isPending;
  const tooMany = picked.length > BULK_LABELS_MAX;

  async function label(value: LabelValue) {
    setError(null);
    try {
      // One batch per kind (the queue mixes screenings and charges); one Undo takes back both.
      const results: BulkLabelResult[] = [];
      for (const kind of ["screening", "charge"] as const) {
        const ids = picked.filter((s) => s.kind === kind).map((s) => s.id);
        if (ids.length > 0) {
          results.push(
            await bulk.mutateAsync({ subject_kind: kind, subject_ids: ids, label: value }),
          );
        }
      }
      const labelled = results.reduce((n, r) => n + r.labelled, 0);
      const missing = results.reduce((n, r) => n + r.not_found.length, 0);
      setDone({
        text: bulkLabelSentence(labelled, value, missing),
        batches: results.flatMap((r) => (r.batch_id ? [r.batch_id] : [])),
        undone: false,
      });
      selection.setAll([], false);
    } catch (e) {
      setError(errorMessage(e));
    }
    await refresh();
  }

  async function takeBack() {
    if (!done) return;
    setError(null);
    try {
      let removed = 0;
      for (const batch_id of done.batches)
        removed += (await undo.mutateAsync({ batch_id })).removed;
      setDone({ text: bulkUndoneSentence(removed), batches: [], undone: true });
    } catch (e) {
      setError(errorMessage(e));
    }
    await refresh();
  }

  return (
    <fieldset className="bulk-labels" aria-label="Label selected">
      <label className="bulk-all">
        <input
          type="checkbox"
          data-select-all
          checked={all}
          disabled={shown.length === 0}
          onChange={(e) => selection.setAll(shown, e.target.checked)}
        />
        Select all {shown.length} shown
      </label>
      <span data-selected-count>{picked.length} selected</span>
      {LABELS.map((value) => (
        <button
          key={value}
          type="button"
          className="secondary"
          data-bulk-label={value}
          disabled={busy || picked.length === 0 || tooMany || reason !== null}
          title={reason ?? undefined}
          aria-describedby={reason ? "bulk-labels-role" : undefined}
          onClick={() => void label(value)}
        >
          Label {value}
        </button>
      ))}
      <RoleNote id="bulk-labels-role" reason={reason} />
      {tooMany && <small>At most {BULK_LABELS_MAX} at once.</small>}
      <span role="status" data-bulk-status>
        {done && (
          <>
            {done.text}
            {!done.undone && done.batches.length > 0 && (
              <>
                {" "}
                <button
                  type="button"
                  className="secondary"
                  data-bulk-undo
                  disabled={busy || reason !== null}
                  onClick={() => void takeBack()}
                >
                  Undo
                </button>
              </>
            )}
          </>
        )}
      </span>
      {error && <span role="alert">{error}</span>}
    </fieldset>
  );
}
