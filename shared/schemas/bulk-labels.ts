/**
 * Bulk labels: one select-and-label from the console (Screenings, Review) or a script (POST
 * /api/v1/labels/bulk) labels many subjects at once as one batch, which one undo removes
 * (the earlier labels become current again). And the one count of labelled screenings that the
 * risk score's fit and Test on history both read.
 */
import { z } from "zod";
import { LABEL_SUBJECTS, LABELS, ZNote } from "./labels.ts";
import { storableString, uuidString } from "./storable.ts";

/** The most subjects one bulk label takes. */
export const BULK_LABELS_MAX = 500;

export const ZBulkLabelInput = z.strictObject({
  subject_kind: z.enum(LABEL_SUBJECTS, { message: "must be screening or charge" }),
  /** Screening ids, or Stripe charge ids (ch_…); each once. */
  subject_ids: z
    .array(
      storableString()
        .trim()
        .min(1, "must not be empty")
        .max(200, "must be at most 200 characters"),
      { message: "must be a list of ids" },
    )
    .min(1, "must name at least one id")
    .max(BULK_LABELS_MAX, `must name at most ${BULK_LABELS_MAX} ids`)
    .refine((ids) => new Set(ids).size === ids.length, "must not name an id twice"),
  label: z.enum(LABELS, { message: "must be fraud or legitimate" }),
  note: ZNote.optional(),
});
export type BulkLabelInput = z.input<typeof ZBulkLabelInput>;

export const ZBulkLabelResult = z.object({
  /** The batch's id, for undo; null when nothing was labelled. */
  batch_id: z.string().nullable(),
  label: z.enum(LABELS),
  /** How many subjects were labelled. */
  labelled: z.number().int(),
  /** The ids given that name nothing in this account (not labelled). */
  not_found: z.array(z.string()),
});
export type BulkLabelResult = z.infer<typeof ZBulkLabelResult>;

export const ZLabelBatchRef = z.strictObject({ batch_id: uuidString() });

export const ZLabelUndoResult = z.object({
  batch_id: z.string(),
  /** How many labels were removed (the subjects' earlier labels are current again). */
  removed: z.number().int(),
});
export type LabelUndoResult = z.infer<typeof ZLabelUndoResult>;

/**
 * The account's labelled screenings, as the risk score's fit learns from them and Test on
 * history scores against them: each screening once, by its newest word (a label, or a review
 * decision, whichever is newer; else a Stripe charge that speaks for a checkout).
 */
export const ZLabelCounts = z.object({
  fraud: z.number().int(),
  legitimate: z.number().int(),
});
export type LabelCounts = z.infer<typeof ZLabelCounts>;
