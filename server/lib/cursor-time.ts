/**
 * The time inside a keyset cursor ("<ISO time>|…", the review queue's and the screenings
 * list's), read before it reaches SQL. A cursor is opaque but not trusted: one decoded to a
 * time no row can have (year +275760 is a valid JS Date that PostgreSQL cannot store) would
 * fail in the database, a 500; here it is a 400 naming `cursor`.
 */
import { AppError } from "./app-error.ts";

/** What Date.toISOString() writes for the years 0000 to 9999. */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Years 1970 to 9999: what a JS Date, PostgreSQL's timestamp(3) and the ISO form above all hold. */
const EARLIEST = 0;
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The time (ms) a cursor carries, or undefined when it is not one a page could have ended on. */
export function cursorTime(text: string | undefined): number | undefined {
  if (!text || !ISO.test(text)) return undefined;
  const at = Date.parse(text);
  return at >= EARLIEST && at <= LATEST ? at : undefined;
}

/** The 400 for a cursor this server did not give out. */
export function notACursor(): AppError {
  const message = "is not a cursor this server gave out";
  return new AppError("BAD_REQUEST", `cursor: ${message}`, {
    issues: [{ path: "cursor", message }],
  });
}
