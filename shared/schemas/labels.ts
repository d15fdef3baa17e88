/**
 * Labels: what a screening or a charge turned out to be, fraud or legitimate. Set from the
 * console, by API (POST /api/v1/labels with a secret key) or by Stripe (a fraud dispute, an
 * early fraud warning). History: a new label never replaces the row of the earlier one.
 */
import { z } from "zod";
import { storableString } from "./storable.ts";

export const LABEL_SUBJECTS = ["screening", "charge"] as const;
export const LABELS = ["fraud", "legitimate"] as const;
export const LABEL_SOURCES = ["person", "api", "stripe"] as const;
export type LabelSubjectKind = (typeof LABEL_SUBJECTS)[number];
export type LabelValue = (typeof LABELS)[number];
export type LabelSource = (typeof LABEL_SOURCES)[number];

/** A person's note on a label, a decision or an allow-list entry: storable (storable.ts). */
export const ZNote = storableString().trim().max(500, "must be at most 500 characters");

const ZSubjectId = storableString()
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");

export const ZLabelSubject = z.strictObject({
  subject_kind: z.enum(LABEL_SUBJECTS, { message: "must be screening or charge" }),
  /** The screening's id, or the Stripe charge id (ch_…). */
  subject_id: ZSubjectId,
});
export type LabelSubject = z.infer<typeof ZLabelSubject>;

export const ZLabelInput = z.strictObject({
  ...ZLabelSubject.shape,
  label: z.enum(LABELS, { message: "must be fraud or legitimate" }),
  note: ZNote.optional(),
});
export type LabelInput = z.input<typeof ZLabelInput>;

export const ZLabelView = z.object({
  id: z.string(),
  subject_kind: z.enum(LABEL_SUBJECTS),
  subject_id: z.string(),
  label: z.enum(LABELS),
  source: z.enum(LABEL_SOURCES),
  /** A console user's email, "API key …", or the Stripe event that set it. */
  who: z.string(),
  /**
   * Which member (their user id, source person) or API key (its id, source api) set it; null
   * for Stripe's. A fit counts its labels by this (one source giving most of them is a warning).
   */
  who_id: z.string().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
});
export type LabelView = z.infer<typeof ZLabelView>;

/** A subject's labels, newest (the current one) first. */
export const ZLabelHistory = z.array(ZLabelView);
