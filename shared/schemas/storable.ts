/**
 * Text a database can store. PostgreSQL refuses NUL in `text` and in `jsonb`, and refuses a
 * lone UTF-16 surrogate in `jsonb` (JSON.stringify writes it as a `\ud800` escape). Input that
 * reaches a row must be refused at the edge with a 400 naming the field: refused later, by
 * the database, it would be a 500, which a fail-open client reads as "allow".
 */
import { z } from "zod";

const NUL = "\u0000";
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_MESSAGE = "must not contain NUL characters or unpaired surrogates";

/** Whether `value` survives a round trip through a PostgreSQL text or jsonb column. */
export function isStorable(value: string): boolean {
  return !value.includes(NUL) && !LONE_SURROGATE.test(value);
}

/** A string schema that refuses what the database cannot store. */
export function storableString(message = "must be a string") {
  return z.string({ message }).refine(isStorable, { message: UNSTORABLE_MESSAGE, abort: true });
}

/** A UUID's shape: the ids Prisma makes with `@default(uuid())`. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id of a row whose id is a UUID (a screening, an allow-list entry, a webhook endpoint or
 * delivery): anything else names no row, and is refused as what it is rather than looked up.
 */
export function uuidString() {
  return z.string({ message: "must be a string" }).regex(UUID, "must be a UUID");
}
