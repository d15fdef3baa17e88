/**
 * The thresholds form's state, pure so it is tested as a table: each event type's two boxes as
 * typed, and whether the type has its own thresholds (a type edited becomes its own; reset, it
 * follows its templates again). What Preview and Save send is the own ones only, so a type
 * left alone keeps following its templates.
 */
import type { ThresholdsView } from "../../../../shared/schemas/score-thresholds.ts";
import type { ScreenType } from "../../../../shared/schemas/screening.ts";

export type Draft = { own: boolean; review: string; block: string };
export type Drafts = Partial<Record<ScreenType, Draft>>;
export type Field = "review" | "block";
type Row = ThresholdsView["types"][number];

const text = (value: number | null | undefined) => (value == null ? "" : String(value));

/** The form as the saved view has it: each type's thresholds in force, own or not. */
export function draftsFrom(view: ThresholdsView): Drafts {
  return Object.fromEntries(
    view.types.map((row) => {
      const own = view.own[row.type];
      const shown = own ?? row.in_force;
      return [
        row.type,
        { own: own !== undefined, review: text(shown?.review), block: text(shown?.block) },
      ];
    }),
  );
}

/** A box typed in: the type now has its own thresholds. */
export function edited(drafts: Drafts, type: ScreenType, field: Field, value: string): Drafts {
  const current = drafts[type] ?? { own: false, review: "", block: "" };
  return { ...drafts, [type]: { ...current, own: true, [field]: value } };
}

/** Back to what the templates apply (or nothing, with no template judging the type). */
export function reset(drafts: Drafts, row: Row): Drafts {
  const fallback = row.templates.length > 0 ? row.template_default : null;
  return {
    ...drafts,
    [row.type]: { own: false, review: text(fallback?.review), block: text(fallback?.block) },
  };
}

/** A box's text as a threshold: empty is none (null); anything else is checked by the schema. */
const thresholdOf = (typed: string): number | null => (typed.trim() === "" ? null : Number(typed));

/** The own thresholds the form holds, as PUT and the preview take them. */
export function ownInput(drafts: Drafts): { thresholds: Record<string, unknown> } {
  const thresholds: Record<string, unknown> = {};
  for (const [type, draft] of Object.entries(drafts)) {
    if (draft?.own)
      thresholds[type] = { review: thresholdOf(draft.review), block: thresholdOf(draft.block) };
  }
  return { thresholds };
}

/** Whether the form differs from what is saved. */
export function unsaved(drafts: Drafts, view: ThresholdsView): boolean {
  return JSON.stringify(ownInput(drafts)) !== JSON.stringify(ownInput(draftsFrom(view)));
}

/** Where a type's thresholds come from, as the form has them now against what is saved. */
export function sourceText(row: Row, draft: Draft, saved: Draft | undefined): string {
  const same =
    saved !== undefined &&
    draft.own === saved.own &&
    (!draft.own || (draft.review === saved.review && draft.block === saved.block));
  const pending = same ? "" : " (not saved)";
  if (draft.own) return `Your own${pending}`;
  if (row.templates.length > 0) return `From ${row.templates.join(", ")}${pending}`;
  return `None: the score is shown, never acted on${pending}`;
}
