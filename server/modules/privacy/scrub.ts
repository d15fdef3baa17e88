/**
 * How an erasure changes a row it found (decision 029): a person's values are taken out of
 * text and JSON as values, never as the text of a whole column. Pure: no I/O. A JSON document
 * is walked; its keys are never changed; a leaf at a personal key (`user_id`, `email`, …) that
 * equals one of the person's values, whatever its JSON type, becomes "[erased]"; a string
 * elsewhere keeps every character but the person's values inside it, each matched whole (not
 * inside a longer email, address or id).
 */
import { canonicalIp } from "../../../shared/ip-address.ts";

export const ERASED = "[erased]";

/** The person's values, by kind, as the erasure matches them (end-users.service.ts). */
export type PersonValues = {
  /** As given or stored (any case): matched in any case. */
  emails: string[];
  /** Exact, case-sensitive: the merchant's ids are theirs to spell. */
  userIds: string[];
  devices: string[];
  /** Canonical (shared/ip-address.ts): an IPv4-mapped address is its IPv4 one. */
  ips: string[];
  cards: string[];
};

export const NO_VALUES: PersonValues = { emails: [], userIds: [], devices: [], ips: [], cards: [] };

/** JSON keys whose value names a person wherever they occur (a screening's input, a webhook body). */
export const PERSONAL_KEYS = new Set([
  "email",
  "user_id",
  "userId",
  "referrer_user_id",
  "device_id",
  "ip",
  "collect_ip",
  "card_fingerprint",
  "value",
  "note",
]);

/**
 * A character that continues an email or id: a match must not touch one (a backslash before:
 * the middle of a JSON escape). An IP's own boundary also counts ":" (2001:db8::1 is not in
 * 2001:db8::1:5).
 */
const bounded = (alternatives: string, colon: string) =>
  String.raw`(?<![\p{L}\p{N}_.@+\-${colon}\\])(?:${alternatives})(?![\p{L}\p{N}_@\-${colon}]|\.[\p{L}\p{N}])`;

const escapeRegExp = (value: string) => value.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");

const alternation = (values: readonly string[]) =>
  [...new Set(values)]
    .filter((value) => value.length > 0)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join("|");

export type Matcher = {
  /** Whether a leaf (of any JSON type) is one of the values, as a whole. */
  equals(leaf: unknown): boolean;
  /** The text with each whole occurrence of a value replaced by "[erased]". */
  replaceIn(text: string): string;
};

/** The matcher for one person: emails in any case, every other value exactly. */
export function matcherOf(values: PersonValues): Matcher {
  const folded = new Set(values.emails.map((email) => email.toLowerCase()));
  const exact = new Set([...values.userIds, ...values.devices, ...values.cards]);
  const ips = new Set(values.ips);
  // In free text an IPv4 address may also be written IPv4-mapped (::ffff:203.0.113.7).
  const mapped = [...ips].filter((ip) => !ip.includes(":")).map((ip) => `::ffff:${ip}`);
  const patterns = [
    [alternation(values.emails), "", "giu"],
    [alternation([...exact]), "", "gu"],
    [alternation([...ips, ...mapped]), ":", "gu"],
  ]
    .filter(([alternatives]) => alternatives)
    .map(
      ([alternatives = "", colon = "", flags]) => new RegExp(bounded(alternatives, colon), flags),
    );
  return {
    equals(leaf) {
      if (leaf === null || typeof leaf === "object") return false;
      const text = String(leaf);
      if (exact.has(text) || folded.has(text.toLowerCase())) return true;
      return typeof leaf === "string" && ips.has(canonicalIp(text));
    },
    replaceIn(text) {
      return patterns.reduce((out, pattern) => out.replace(pattern, ERASED), text);
    },
  };
}

/**
 * JSON keys whose values are Warden's own codes, ids and times, never a person's words: a
 * reason's `action` is "review" even for a user whose id is "review".
 */
export const CODE_KEYS = new Set([
  "id",
  "rule",
  "rules",
  "action",
  "decision",
  "type",
  "kind",
  "signal",
  "feature",
  "status",
  "label",
  "source",
  "subject_kind",
  "subject_id",
  "screening_id",
  "charge_id",
  "erasure_id",
  "stripe_object_id",
  "currency",
  "country",
  "through",
  "created",
  "created_at",
  "added_at",
  "account_first_seen",
]);

/**
 * The document with the person's values taken out, and whether anything changed. Leaves at
 * `keys` that equal a value become "[erased]" (numbers and literals too); other strings keep
 * all but the values inside them, and strings at CODE_KEYS stay whole. Keys stay as they are.
 */
export function scrubJson(
  doc: unknown,
  matcher: Matcher,
  keys: ReadonlySet<string> = PERSONAL_KEYS,
): { value: unknown; changed: boolean } {
  let changed = false;
  const walk = (node: unknown, key: string | null): unknown => {
    // A code's value, or a list of them; an object under such a key (a webhook's `label`) is
    // walked like any other.
    const isObject = node !== null && typeof node === "object" && !Array.isArray(node);
    if (key !== null && CODE_KEYS.has(key) && !isObject) return node;
    if (key !== null && keys.has(key) && matcher.equals(node)) {
      changed = true;
      return ERASED;
    }
    if (typeof node === "string") {
      const out = matcher.replaceIn(node);
      if (out !== node) changed = true;
      return out;
    }
    if (Array.isArray(node)) return node.map((item) => walk(item, key));
    if (node !== null && typeof node === "object") {
      return Object.fromEntries(
        Object.entries(node as Record<string, unknown>).map(([k, v]) => [k, walk(v, k)]),
      );
    }
    return node;
  };
  const value = walk(doc, null);
  return { value: changed ? value : doc, changed };
}

/** A text column's value with the person's values taken out (null stays null). */
export function scrubText(text: string | null, matcher: Matcher): string | null {
  return text === null ? null : matcher.replaceIn(text);
}

/** An audit event's `after` without the person's values: the entry's value, the note. */
export function auditAfter(action: string, after: unknown): unknown {
  if (after === null || typeof after !== "object" || Array.isArray(after)) return after;
  const out = { ...(after as Record<string, unknown>) };
  const fields = action === "allowList.add" ? ["value", "note"] : ["note"];
  for (const field of fields) {
    if (typeof out[field] === "string") out[field] = ERASED;
  }
  return out;
}
