/**
 * A merchant's own risk-score weights as the console and the API read and change them
 * (GET /api/scoring/models, POST /api/scoring/proposals, POST /api/scoring/models/{id}/adopt,
 * POST /api/scoring/rollback): every version fitted from its labels, each with the backtest it
 * was proposed with (current weights against proposed, on the merchant's own history).
 */
import { z } from "zod";
import { ZThresholds, ZWeights } from "../score/weights.ts";

/** Labelled screenings of each class a proposal needs (fewer: a 400 saying how many). */
export const MIN_LABELS_PER_CLASS = 50;
/** How many days of all screenings a proposal's backtest counts. */
export const RECENT_DAYS = 30;

export const MODEL_STATUSES = ["proposed", "adopted", "retired"] as const;
export type ModelStatus = (typeof MODEL_STATUSES)[number];

export const ZModelRef = z.strictObject({ id: z.uuid({ message: "must be a model id" }) });
export type ModelRef = z.input<typeof ZModelRef>;

/** What one set of weights did to a group of screenings: how many blocked, how many reviewed. */
export const ZOutcome = z.object({ blocked: z.number().int(), reviewed: z.number().int() });
export type Outcome = z.infer<typeof ZOutcome>;

/** On labelled screenings: the fraud ones caught (recall) and the legitimate ones stopped. */
export const ZLabelledOutcome = z.object({ fraud: ZOutcome, legitimate: ZOutcome });
export type LabelledOutcome = z.infer<typeof ZLabelledOutcome>;

/** One signal's weight before and after, in points per unit of the signal. */
export const ZWeightChange = z.object({ signal: z.string(), from: z.number(), to: z.number() });
export type WeightChange = z.infer<typeof ZWeightChange>;

/** The backtest a proposal comes with (ScoreModel.metrics). */
export const ZModelMetrics = z.object({
  /** The labelled screenings fitted on, by class, and where their labels came from. */
  labels: z.object({
    fraud: z.number().int(),
    legitimate: z.number().int(),
    from: z.object({
      labels: z.number().int(),
      reviews: z.number().int(),
      stripe: z.number().int(),
    }),
    /** More were labelled than a fit reads: only the newest were used. */
    capped: z.boolean(),
  }),
  /** The weights in force when it was proposed: what "current" is. */
  compared_with: z.string(),
  /** The thresholds in force when it was proposed, which both sides were judged by. */
  thresholds: ZThresholds,
  /** Cross-validation folds: each labelled screening is judged by weights not fitted on it. */
  folds: z.number().int(),
  /** The pull toward the weights in force (fit.ts lambda). */
  lambda: z.number(),
  labelled: z.object({ current: ZLabelledOutcome, proposed: ZLabelledOutcome }),
  /** Every scored screening of the last RECENT_DAYS days, labelled or not. */
  recent: z.object({
    days: z.number().int(),
    screenings: z.number().int(),
    capped: z.boolean(),
    current: ZOutcome,
    proposed: ZOutcome,
  }),
  /** Every weight that moved, the largest move first. */
  changes: z.array(ZWeightChange),
  took_ms: z.number(),
});
export type ModelMetrics = z.infer<typeof ZModelMetrics>;

export const ZScoreModelView = z.object({
  id: z.string(),
  version: z.number().int(),
  status: z.enum(MODEL_STATUSES),
  weights: ZWeights,
  metrics: ZModelMetrics.nullable(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  adopted_at: z.string().nullable(),
  adopted_by: z.string().nullable(),
});
export type ScoreModelView = z.infer<typeof ZScoreModelView>;

export const ZScoreModels = z.object({
  /** The weights screenings are scored with now: an adopted version, or the shipped defaults. */
  in_force: z.object({
    /** "acct-3", or the defaults' own ("default-2"). */
    version: z.string(),
    model_id: z.string().nullable(),
  }),
  /** The newest versions first. */
  models: z.array(ZScoreModelView),
});
export type ScoreModels = z.infer<typeof ZScoreModels>;
