/**
 * Data retention (retention.get/put, GET/PUT /api/retention): PUT takes any subset of the
 * kinds, each a whole number of days within its limits, or null for the instance's default;
 * GET answers every kind in the console's order, with what a setting breaks.
 */
import { z } from "zod";
import {
  RETENTION,
  RETENTION_KINDS,
  type RetentionKind,
  retentionRangeMessage,
} from "../privacy/retention.ts";

function daysOf(kind: RetentionKind) {
  const range = retentionRangeMessage(kind);
  return z
    .number({ message: "must be a whole number of days" })
    .int("must be a whole number of days")
    .min(RETENTION[kind].min, range)
    .max(RETENTION[kind].max, range)
    .nullable()
    .optional();
}

export const ZRetentionSettings = z.strictObject(
  Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, daysOf(kind)])) as {
    [K in RetentionKind]: ReturnType<typeof daysOf>;
  },
);
/** Days per kind; null: back to the default; absent: unchanged. */
export type RetentionSettings = z.infer<typeof ZRetentionSettings>;

export const ZRetentionKindView = z.object({
  kind: z.enum(RETENTION_KINDS),
  label: z.string(),
  holds: z.string(),
  days: z.number().int(),
  default_days: z.number().int(),
  is_default: z.boolean(),
  min: z.number().int(),
  max: z.number().int(),
  /** What this setting weakens, one sentence each (empty: nothing). */
  breaks: z.array(z.string()),
});
export type RetentionKindView = z.infer<typeof ZRetentionKindView>;

export const ZRetentionView = z.object({
  kinds: z.array(ZRetentionKindView),
  /** The rule windows under the account's settings, so a form can warn before saving. */
  windows: z.array(
    z.object({
      kind: z.enum(RETENTION_KINDS),
      rule: z.string(),
      days: z.number().int(),
      loses: z.string(),
    }),
  ),
});
export type RetentionView = z.infer<typeof ZRetentionView>;
