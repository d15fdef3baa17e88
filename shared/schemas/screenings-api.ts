/**
 * GET /api/v1/screenings: a script's read of the account's screenings, newest first, filtered
 * and paged with an opaque cursor. The query string's values are text; this reads them.
 */
import { z } from "zod";
import { LABELS } from "./labels.ts";
import { SCREEN_TYPES } from "./screen-types.ts";
import { DECISIONS, ZScreeningRow } from "./screening.ts";
import { storableString } from "./storable.ts";

export const SCREENINGS_API_PAGE_MAX = 200;
export const SCREENINGS_API_PAGE_DEFAULT = 50;

const DAY_MS = 86_400_000;

/** A time (ISO 8601 with offset) or a date (a UTC day; `end`: up to the end of that day). */
const zTime = (end: boolean) =>
  z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], {
      message: "must be an ISO 8601 date (2026-11-20) or time (2026-11-20T10:00:00Z)",
    })
    .transform((text) => {
      const at = new Date(text);
      return end && text.length === 10 ? new Date(at.getTime() + DAY_MS) : at;
    });

export const ZScreeningsApiQuery = z
  .strictObject({
    decision: z.enum(DECISIONS, { message: "must be allow, review or block" }).optional(),
    type: z.enum(SCREEN_TYPES, { message: `must be one of ${SCREEN_TYPES.join(", ")}` }).optional(),
    /** From this time on. */
    from: zTime(false).optional(),
    /** Before this time (a date: up to the end of it). */
    to: zTime(true).optional(),
    /** true: only labelled screenings; false: only unlabelled ones. */
    labelled: z
      .enum(["true", "false"], { message: "must be true or false" })
      .transform((text) => text === "true")
      .optional(),
    /** Only screenings whose current (newest) label is this. */
    label: z.enum(LABELS, { message: "must be fraud or legitimate" }).optional(),
    /** The email, whole, any case. */
    email: storableString().trim().min(1).max(320, "must be at most 320 characters").optional(),
    limit: z
      .string({ message: "must be a number" })
      .optional()
      .transform((raw) =>
        raw === undefined
          ? SCREENINGS_API_PAGE_DEFAULT
          : raw.trim() === ""
            ? Number.NaN
            : Number(raw),
      )
      .pipe(
        z
          .number({ message: "must be a number" })
          .int("must be a whole number")
          .min(1, "must be at least 1")
          .max(SCREENINGS_API_PAGE_MAX, `must be at most ${SCREENINGS_API_PAGE_MAX}`),
      ),
    /** Opaque, from the previous page's next_cursor. */
    cursor: z
      .string({ message: "must be a string" })
      .max(200, "must be at most 200 characters")
      .optional(),
  })
  .refine((q) => !q.from || !q.to || q.from < q.to, {
    message: "must be after from",
    path: ["to"],
  });
export type ScreeningsApiQuery = z.output<typeof ZScreeningsApiQuery>;

export const ZScreeningsApiItem = ZScreeningRow.extend({
  /** The current (newest) label; null when it has none. */
  label: z.enum(LABELS).nullable(),
});

export const ZScreeningsApiPage = z.object({
  items: z.array(ZScreeningsApiItem),
  /** Pass it back as `cursor` for the next page; null on the last. */
  next_cursor: z.string().nullable(),
});
export type ScreeningsApiPage = z.infer<typeof ZScreeningsApiPage>;
