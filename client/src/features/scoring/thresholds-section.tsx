/**
 * The risk score's review and block thresholds per event type: what is in force and where it
 * comes from (the merchant's own, the templates that are on, or none), two boxes per type,
 * Preview (the last 30 days under the boxes' values, against today's) and Save. The same schema
 * as the server checks the boxes first, so a mistake is shown beside its box before any call.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  type ThresholdsView,
  ZThresholdsInput,
} from "../../../../shared/schemas/score-thresholds.ts";
import { ErrorMessage } from "../../components/error-message.tsx";
import { LoadError } from "../../components/save-status.tsx";
import { weightsName } from "../../lib/rule-format.ts";
import { errorMessage, fieldErrors, useTRPC } from "../../lib/trpc.ts";
import { typeName } from "./preview-format.ts";
import {
  type Drafts,
  draftsFrom,
  edited,
  type Field,
  ownInput,
  reset,
  sourceText,
  unsaved,
} from "./threshold-drafts.ts";
import { PreviewResult } from "./threshold-preview.tsx";

export function ThresholdsSection() {
  const trpc = useTRPC();
  const query = useQuery(trpc.scoreThresholds.get.queryOptions());
  if (query.isError) {
    return <LoadError what="your risk score thresholds" error={errorMessage(query.error)} />;
  }
  if (!query.data) return <p className="loading">Loading…</p>;
  return <ThresholdsForm view={query.data} />;
}

function ThresholdsForm({ view }: { view: ThresholdsView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<Drafts>(() => draftsFrom(view));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [attempt, setAttempt] = useState<"preview" | "save">("preview");
  const preview = useMutation(trpc.scoreThresholds.preview.mutationOptions());
  const save = useMutation(
    trpc.scoreThresholds.put.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.scoreThresholds.get.queryKey(), next);
        setDrafts(draftsFrom(next));
        setSaved(true);
      },
    }),
  );
  const errors = { ...fieldErrors(preview.error), ...fieldErrors(save.error), ...localErrors };
  const savedDrafts = draftsFrom(view);
  const dirty = unsaved(drafts, view);

  function change(next: Drafts) {
    setDrafts(next);
    setLocalErrors({});
    setSaved(false);
    preview.reset();
    save.reset();
  }

  /** The own thresholds to send, or null (and the boxes marked) when they do not validate. */
  function checked() {
    const input = ownInput(drafts);
    const result = ZThresholdsInput.safeParse(input);
    if (result.success) {
      setLocalErrors({});
      return result.data;
    }
    setLocalErrors(
      Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message])),
    );
    return null;
  }

  function onPreview() {
    setAttempt("preview");
    save.reset();
    const input = checked();
    if (input) preview.mutate(input);
  }

  function onSave(event: FormEvent) {
    event.preventDefault();
    setAttempt("save");
    preview.reset();
    const input = checked();
    if (input) save.mutate(input);
  }

  const general = [preview.error, save.error].find(
    (error) => error && Object.keys(fieldErrors(error)).length === 0,
  );

  return (
    <form
      className="config-section score-thresholds"
      aria-labelledby="score-thresholds-title"
      onSubmit={onSave}
      noValidate
    >
      <h2 id="score-thresholds-title">Thresholds per event type</h2>
      <p className="config-note">
        A screening whose score is at or above a type's block threshold is blocked, at or above its
        review threshold reviewed, whatever the rules say. A template that is on applies the shipped
        thresholds ({weightsName(view.weights.version)}) to the types it judges; yours win. Leave a
        box empty for none.
      </p>
      <div className="score-threshold-rows">
        {view.types.map((row) => {
          const draft = drafts[row.type] ?? { own: false, review: "", block: "" };
          const name = typeName(row.type);
          const box = (field: Field, label: string) => {
            const path = `thresholds.${row.type}.${field}`;
            const error = errors[path];
            const errorId = `${row.type}-${field}-error`;
            return (
              <label>
                {label}
                <input
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={100}
                  step={1}
                  name={path}
                  aria-label={`${name} ${field} threshold`}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? errorId : undefined}
                  value={draft[field]}
                  onChange={(event) => change(edited(drafts, row.type, field, event.target.value))}
                />
                {error && (
                  <span className="field-error" id={errorId}>
                    {error}
                  </span>
                )}
              </label>
            );
          };
          return (
            <fieldset key={row.type} className="score-threshold-row" data-type={row.type}>
              <legend>{name}</legend>
              <div className="score-threshold-fields">
                {box("review", "Review at")}
                {box("block", "Block at")}
                <p className="score-threshold-source" data-source>
                  {sourceText(row, draft, savedDrafts[row.type])}
                </p>
                {draft.own && (
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Reset ${name} to ${row.templates.length > 0 ? "the templates' default" : "none"}`}
                    onClick={() => change(reset(drafts, row))}
                  >
                    Reset
                  </button>
                )}
              </div>
            </fieldset>
          );
        })}
      </div>
      <div className="score-threshold-actions">
        <button
          type="button"
          className="secondary"
          onClick={onPreview}
          disabled={preview.isPending}
        >
          Preview
        </button>
        <button type="submit" disabled={save.isPending || !dirty}>
          Save
        </button>
        <span role="status" className="save-status">
          {preview.isPending ? "Counting the last 30 days…" : ""}
          {save.isPending ? "Saving…" : ""}
          {saved && !dirty ? "Saved." : ""}
        </span>
      </div>
      <ErrorMessage error={general} />
      {Object.keys(errors).length > 0 && (
        <p className="message error" role="alert">
          Not {attempt === "save" ? "saved" : "previewed"}: check the boxes marked above.
        </p>
      )}
      {preview.data && <PreviewResult preview={preview.data} />}
    </form>
  );
}
