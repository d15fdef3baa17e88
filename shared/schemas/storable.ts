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

/** At most this many places are named in one refusal: a file full of NUL is not a huge 400. */
const PATHS_NAMED = 10;

/** Stands, on the walk's stack, for an object key the database cannot store. */
const BAD_KEY = Symbol("unstorable key");

/** A place in the walk: its key and the place holding it (paths are built only when named). */
type Place = { key: PropertyKey; up: Place } | null;

function pathOf(place: Place): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at = place; at; at = at.up) path.push(at.key);
  return path.reverse();
}

/**
 * Where, in a value read from JSON, sits text the database cannot store: each string, and
 * each object key (what such a key holds is not looked at), that is not `isStorable`, by its
 * path, in document order, at most `limit` of them. Walked with a stack of its own and links
 * to parents rather than copied paths, so any depth of nesting costs linear time and no
 * call stack.
 */
export function unstorablePaths(value: unknown, limit = PATHS_NAMED): PropertyKey[][] {
  const found: PropertyKey[][] = [];
  const stack: [unknown, Place][] = [[value, null]];
  while (stack.length > 0 && found.length < limit) {
    const [item, place] = stack.pop() as [unknown, Place];
    if (item === BAD_KEY || (typeof item === "string" && !isStorable(item))) {
      found.push(pathOf(place));
    } else if (item && typeof item === "object") {
      const entries: [PropertyKey, unknown][] = Array.isArray(item)
        ? item.map((child, i) => [i, child])
        : Object.entries(item);
      for (const [key, child] of entries.reverse()) {
        const bad = typeof key === "string" && !isStorable(key);
        stack.push([bad ? BAD_KEY : child, { key, up: place }]);
      }
    }
  }
  return found;
}

/**
 * `schema`, after every string and key anywhere in its input has been checked: each place
 * holding text the database cannot store is a 400 issue naming it, and the schema does not
 * run. One wrapper for a whole form or document, so a field added to it later is covered.
 */
export function storableInput<T extends z.ZodType>(schema: T) {
  return z.preprocess<unknown, T, z.input<T>>((value, ctx) => {
    for (const path of unstorablePaths(value)) {
      ctx.addIssue({ code: "custom", path, message: UNSTORABLE_MESSAGE, input: value });
    }
    return value;
  }, schema);
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
