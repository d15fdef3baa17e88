/**
 * The risk score's weights as a file holds them (server/engine/score.ts reads them; npm run fit
 * writes the defaults, a merchant's own fit writes theirs): log-odds per unit of each signal,
 * a starting log-odds per event type, and the review and block thresholds (0–100) that met the
 * false-positive ceilings on the data the weights were fitted on.
 */
import { z } from "zod";
import { SCREEN_TYPES } from "../schemas/screening.ts";

export const ZThreshold = z
  .object({
    review: z.number().int().min(0).max(100).nullable(),
    block: z.number().int().min(0).max(100).nullable(),
  })
  .refine((t) => t.review === null || t.block === null || t.review <= t.block, {
    message: "review must not be above block",
    path: ["review"],
  });
export type Threshold = z.infer<typeof ZThreshold>;

export const ZThresholds = z.partialRecord(z.enum(SCREEN_TYPES), ZThreshold);
export type Thresholds = z.infer<typeof ZThresholds>;

export const ZWeights = z.object({
  /** "default-3" for the shipped file's third version; a merchant's adopted fit: "acct-<n>". */
  version: z.string().min(1).max(64),
  /** How they were made: the command, seeds, events, regularization (free-form, for people). */
  fitted: z.record(z.string(), z.unknown()),
  intercepts: z.partialRecord(z.enum(SCREEN_TYPES), z.number()),
  weights: z.record(z.string(), z.number()),
  thresholds: ZThresholds,
});
export type Weights = z.infer<typeof ZWeights>;
