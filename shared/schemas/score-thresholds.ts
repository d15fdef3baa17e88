/**
 * The risk score's review and block thresholds as the console and the API read and move them
 * (GET / PUT /api/scoring/thresholds, POST …/preview): the merchant's own per event type, what
 * is in force and where it comes from, and what proposed thresholds would have done to the
 * last 30 days of its screenings. The values themselves are shared/score/weights.ts ZThresholds.
 */
import { z } from "zod";
import { ZThresholds } from "../score/weights.ts";
import { SCREEN_TYPES } from "./screening.ts";

/** How many days back a preview looks. */
export const PREVIEW_DAYS = 30;

/** The merchant's own thresholds, as PUT takes them (a type left out follows its template). */
export const ZThresholdsInput = z.strictObject({ thresholds: ZThresholds });
export type ThresholdsInput = z.input<typeof ZThresholdsInput>;

/** One event type whose own thresholds are dropped, so its templates' defaults apply again. */
export const ZThresholdReset = z.strictObject({
  type: z.enum(SCREEN_TYPES, { message: `must be one of ${SCREEN_TYPES.join(", ")}` }),
});

/** A threshold as an answer carries it (already valid: no review ≤ block check on the way out). */
const ZThresholdValue = z.object({ review: z.number().nullable(), block: z.number().nullable() });

/**
 * Where a type's thresholds come from: the merchant's own, the shipped defaults because a
 * template that is on judges the type, or none (the score is shown, never acted on).
 */
export const THRESHOLD_SOURCES = ["own", "template", "none"] as const;
export type ThresholdSource = (typeof THRESHOLD_SOURCES)[number];

export const ZThresholdsView = z.object({
  /** The merchant's own thresholds ({} when it set none). */
  own: z.partialRecord(z.enum(SCREEN_TYPES), ZThresholdValue),
  /** The weights the score is computed with, and the thresholds they ship with. */
  weights: z.object({
    version: z.string(),
    thresholds: z.partialRecord(z.enum(SCREEN_TYPES), ZThresholdValue),
  }),
  types: z.array(
    z.object({
      type: z.enum(SCREEN_TYPES),
      /** What a screening of this type is judged by now; null: nothing acts on its score. */
      in_force: ZThresholdValue.nullable(),
      source: z.enum(THRESHOLD_SOURCES),
      /** The templates that are on and judge this type (their labels), own thresholds or not. */
      templates: z.array(z.string()),
      /** What the templates would apply (the weights' default for the type). */
      template_default: ZThresholdValue.nullable(),
    }),
  ),
});
export type ThresholdsView = z.infer<typeof ZThresholdsView>;

/** What a set of thresholds does to screenings: how many blocked and reviewed, labelled or not. */
export const ZPreviewOutcome = z.object({
  blocked: z.number(),
  reviewed: z.number(),
  fraud_blocked: z.number(),
  fraud_reviewed: z.number(),
  legitimate_blocked: z.number(),
  legitimate_reviewed: z.number(),
});
export type PreviewOutcome = z.infer<typeof ZPreviewOutcome>;

export const ZPreviewCounts = z.object({
  /** Scored screenings counted. */
  screenings: z.number(),
  /** Of them, labelled fraud (a label, or denied in review) and legitimate (or approved). */
  fraud: z.number(),
  legitimate: z.number(),
  /** With the thresholds in force today, and with the proposed ones. */
  now: ZPreviewOutcome,
  proposed: ZPreviewOutcome,
});
export type PreviewCounts = z.infer<typeof ZPreviewCounts>;

export const ZThresholdPreview = z.object({
  from: z.string(),
  to: z.string(),
  /** Screenings in the window stored before the score existed: not counted. */
  unscored: z.number(),
  total: ZPreviewCounts,
  types: z.array(
    ZPreviewCounts.extend({
      type: z.enum(SCREEN_TYPES),
      now_threshold: ZThresholdValue.nullable(),
      proposed_threshold: ZThresholdValue.nullable(),
    }),
  ),
});
export type ThresholdPreview = z.infer<typeof ZThresholdPreview>;
