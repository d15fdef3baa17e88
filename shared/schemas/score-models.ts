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

/**
 * What a proposal may do that a member must confirm, one by one, before adopting it
 * (server/modules/scoring/model-warnings.ts): stop blocking most of what the weights in force
 * block, count a signal of abuse as a sign against it, or have learnt mostly from one source.
 */
export const WARNING_CODES = ["stops_blocking", "attack_signal_negative", "one_source"] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

/** A proposal warns when it stops blocking more than this share of what is blocked now. */
export const STOPS_BLOCKING_SHARE = 0.5;
/** A proposal warns when one member or API key gave more than this share of its labels. */
export const ONE_SOURCE_SHARE = 0.5;

/** Adopting: the proposal's warnings the member confirms (each one it has, or a 400). */
export const ZAdoptConfirmation = z.strictObject({
  confirm: z
    .array(z.enum(WARNING_CODES, { message: `must be one of ${WARNING_CODES.join(", ")}` }))
    .max(10, "must hold at most 10 codes")
    .optional(),
});
export type AdoptConfirmation = z.input<typeof ZAdoptConfirmation>;

/** The console's adopt: which version, and the warnings confirmed. */
export const ZAdoptModel = z.strictObject({ ...ZModelRef.shape, ...ZAdoptConfirmation.shape });
export type AdoptModel = z.input<typeof ZAdoptModel>;

/** A member or an API key: who gave a label (Stripe's own verdicts are no one's). */
export const LABEL_SOURCE_KINDS = ["member", "api_key"] as const;
export const ZLabelSource = z.object({
  kind: z.enum(LABEL_SOURCE_KINDS),
  /** The member's user id, or the API key's id. */
  id: z.string(),
  /** The member's email, or the key's name and start ("backend (wdn_sk_1a2b…)"). */
  name: z.string(),
});
export type LabelSourceRef = z.infer<typeof ZLabelSource>;

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
    /**
     * The member or API key that gave the most of these labelled screenings, and how many;
     * null when none did (Stripe's alone). Absent on proposals made before it was counted.
     */
    top_source: ZLabelSource.extend({ labels: z.number().int() }).nullable().optional(),
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
    /**
     * Of the screenings the current weights block, how many the proposed block too. Absent on
     * proposals made before it was counted.
     */
    still_blocked: z.number().int().optional(),
  }),
  /** Every weight that moved, the largest move first. */
  changes: z.array(ZWeightChange),
  took_ms: z.number(),
});
export type ModelMetrics = z.infer<typeof ZModelMetrics>;

/** A proposal's warning: a code to confirm, what it means in a sentence, and its figures. */
export const ZModelWarning = z.discriminatedUnion("code", [
  z.object({
    code: z.literal("stops_blocking"),
    message: z.string(),
    /** Screenings of the last `days` days the current weights block, and the proposed too. */
    days: z.number().int(),
    blocked_now: z.number().int(),
    still_blocked: z.number().int(),
  }),
  z.object({
    code: z.literal("attack_signal_negative"),
    message: z.string(),
    /** Signals the shipped weights count toward abuse that the proposal counts against it. */
    signals: z.array(ZWeightChange),
  }),
  z.object({
    code: z.literal("one_source"),
    message: z.string(),
    source: ZLabelSource,
    /** Labelled screenings it gave, of all the proposal learnt from, and their share. */
    labels: z.number().int(),
    of: z.number().int(),
    share: z.number(),
  }),
]);
export type ModelWarning = z.infer<typeof ZModelWarning>;

export const ZScoreModelView = z.object({
  id: z.string(),
  version: z.number().int(),
  status: z.enum(MODEL_STATUSES),
  weights: ZWeights,
  metrics: ZModelMetrics.nullable(),
  /** What adopting it would do that a member must confirm first (none: adopt as is). */
  warnings: z.array(ZModelWarning),
  /** The warnings the member who adopted it confirmed (empty: it had none, or not adopted). */
  confirmed_warnings: z.array(z.enum(WARNING_CODES)),
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
    /** The warnings confirmed when it was adopted (none for the defaults). */
    confirmed_warnings: z.array(z.enum(WARNING_CODES)),
  }),
  /** The newest versions first. */
  models: z.array(ZScoreModelView),
});
export type ScoreModels = z.infer<typeof ZScoreModels>;
