/**
 * Inputs for fuzzing the decision loop (review, labels, allow list, webhooks, the screenings
 * API): each field gets a plausible value or a hostile one (NUL, lone surrogates, huge numbers,
 * wrong types, cursors no page gave out), so a request gets past its first check often enough
 * to reach the service and the database, where a 500 would come from.
 */

import fc from "fast-check";
import { ALLOW_KINDS } from "../../shared/schemas/allow-list.ts";
import { RULE_KEYS } from "../../shared/schemas/rules.ts";
import { SCREEN_TYPES } from "../../shared/schemas/screening.ts";
import { WEBHOOK_EVENTS } from "../../shared/schemas/webhooks.ts";

/** Rows the fuzz can aim at, so some requests name something that exists. */
export type RealIds = {
  screenings: string[];
  allowEntries: string[];
  endpoints: string[];
  deliveries: string[];
  cursors: string[];
};

const b64 = (text: string) => Buffer.from(text).toString("base64url");
const UUID = "0b5f8f8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b";

/** Empty, blank, NUL and lone-surrogate strings, in both fuzzers' lists of odd text. */
export const ODD_STRINGS = ["", " ", "\u0000", "a\u0000b", "\ud800", "x\udfff", "\udbff\udfff"];

/** Strings the database cannot store, or that are too long, empty or odd. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ unit: fc.constantFrom("\u0000", "\ud800", "\udfff", "a", "é", "🛡️"), maxLength: 8 }),
  fc.constantFrom(
    ...ODD_STRINGS,
    "\u202e",
    "%00",
    "../..",
    "ch_\u0000",
    "a".repeat(600),
    "9".repeat(400),
  ),
);

const hugeNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, 2 ** 31, 2 ** 53 + 2, -1, 0, 0.5, 1e21, -0),
  fc.double(),
  fc.integer(),
);

/** A value of the wrong type for any field. */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  hugeNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(nastyString, { maxLength: 3 }),
  fc.dictionary(nastyString, nastyString, { maxKeys: 2 }),
);

/** A field: mostly plausible, often hostile. */
const field = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 3, arbitrary: good as fc.Arbitrary<unknown> },
    { weight: 2, arbitrary: nastyString as fc.Arbitrary<unknown> },
    { weight: 1, arbitrary: wrongType },
  );

/** Cursors: real ones, ones at times no database stores, and plain junk. */
function cursor(real: string[]): fc.Arbitrary<unknown> {
  const made = fc
    .tuple(
      fc.constantFrom(
        "+275760-09-13T00:00:00.000Z",
        "-271821-04-20T00:00:00.000Z",
        "0000-01-01T00:00:00.000Z",
        "1969-12-31T23:59:59.999Z",
        "9999-12-31T23:59:59.999Z",
        "+010000-01-01T00:00:00.000Z",
        "2038-01-19T03:14:08.000Z",
        "2100-01-01T00:00:00.000Z",
        "2026-11-20T10:00:00.000Z",
        "Invalid Date",
        "\u0000",
      ),
      fc.constantFrom("screening", "charge", "refund", ""),
      fc.oneof(fc.constantFrom(UUID, "ch_1", "a".repeat(120)), nastyString),
      fc.boolean(),
    )
    .map(([time, kind, id, withKind]) => b64(withKind ? `${time}|${kind}|${id}` : `${time}|${id}`));
  return fc.oneof(
    fc.constantFrom(...(real.length ? real : [b64("x")])),
    made,
    fc.string({ unit: "binary", maxLength: 80 }).map(b64),
    nastyString,
    wrongType,
  );
}

function ids(real: string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(real.length ? real : [UUID])) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom("ch_1", "ch_nope", UUID.toUpperCase()) },
    { weight: 2, arbitrary: nastyString },
    { weight: 1, arbitrary: wrongType },
  );
}

const record = (shape: Record<string, fc.Arbitrary<unknown>>) =>
  fc.record(shape, { requiredKeys: [] });

/** A webhook URL: always to this machine (the worker may send to it), with a hostile path. */
const webhookUrl = fc.oneof(
  fc.constantFrom("http://127.0.0.1:1/hook"),
  nastyString.map((path) => `http://127.0.0.1:1/${path}`),
  nastyString.map((query) => `http://127.0.0.1:1/hook?q=${query}`),
  nastyString.filter((s) => !/^\s*https?:/i.test(s)),
  wrongType,
);

/** Each kind of input the decision loop takes, as fields → arbitraries. */
export function inputShapes(real: RealIds) {
  const filters = record({
    rule: field(fc.constantFrom(...RULE_KEYS)),
    kind: field(fc.constantFrom("screening", "charge")),
    type: field(fc.constantFrom(...SCREEN_TYPES)),
    older_than_hours: field(fc.integer({ min: 1, max: 24 * 365 })),
  });
  const subjectId = fc.oneof(ids(real.screenings), field(fc.constantFrom("ch_1", "ch_nope")));
  const decision = field(fc.constantFrom("approve", "deny"));
  const note = field(fc.string({ maxLength: 40 }));
  const shapes = {
    labelInput: record({
      subject_kind: field(fc.constantFrom("screening", "charge")),
      subject_id: subjectId,
      label: field(fc.constantFrom("fraud", "legitimate")),
      note,
    }),
    labelSubject: record({
      subject_kind: field(fc.constantFrom("screening", "charge")),
      subject_id: subjectId,
    }),
    queue: record({
      rule: field(fc.constantFrom(...RULE_KEYS)),
      kind: field(fc.constantFrom("screening", "charge")),
      type: field(fc.constantFrom(...SCREEN_TYPES)),
      older_than_hours: field(fc.integer({ min: 1, max: 24 * 365 })),
      limit: field(fc.integer({ min: 1, max: 200 })),
      cursor: cursor(real.cursors),
    }),
    list: record({
      decision: field(fc.constantFrom("allow", "review", "block")),
      type: field(fc.constantFrom(...SCREEN_TYPES)),
      search: field(fc.constantFrom("u1", "a@example.com", "203.0.113.7")),
      limit: field(fc.integer({ min: 1, max: 200 })),
      cursor: cursor(real.cursors),
    }),
    settle: record({
      id: fc.oneof(ids(real.screenings), field(fc.constantFrom("ch_1"))),
      kind: field(fc.constantFrom("screening", "charge")),
      decision,
      note,
      always_allow: field(fc.boolean()),
    }),
    decision: record({ decision, note, always_allow: field(fc.boolean()) }),
    screeningRef: record({ id: ids(real.screenings) }),
    settleApi: record({
      id: ids(real.screenings),
      decision,
      note,
      always_allow: field(fc.boolean()),
    }),
    bulk: record({ filters, decision, note }),
    allowAdd: record({
      kind: field(fc.constantFrom(...ALLOW_KINDS)),
      value: field(fc.constantFrom("u1", "a@example.com", "example.com", "203.0.113.0/24")),
      note,
      expires_at: field(
        fc.constantFrom(
          "2027-01-01T00:00:00Z",
          "+275760-09-13T00:00:00.000Z",
          "0000-01-01T00:00:00Z",
          "9999-12-31T23:59:59Z",
          "2026-11-20T10:00:00+14:00",
        ),
      ),
    }),
    allowRef: record({ id: ids(real.allowEntries) }),
    endpoint: record({
      url: webhookUrl,
      events: field(fc.subarray([...WEBHOOK_EVENTS], { minLength: 1 })),
    }),
    endpointRef: record({ id: ids(real.endpoints) }),
    deliveryRef: record({ id: ids(real.deliveries) }),
  };
  return shapes;
}

export type InputShape = keyof ReturnType<typeof inputShapes>;

/** A whole input: mostly the shape's record, sometimes with a stray key, sometimes anything. */
export function inputOf(shape: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 8, arbitrary: shape as fc.Arbitrary<unknown> },
    {
      weight: 1,
      arbitrary: fc
        .tuple(shape, nastyString, nastyString)
        // Never a stray url: webhook URLs stay on this machine (webhookUrl).
        .map(([input, key, value]) => (key === "url" ? input : { ...input, [key]: value })),
    },
    { weight: 1, arbitrary: wrongType },
  );
}

/** A path segment or query value, percent-encoded; a lone surrogate as the bytes of its WTF-8. */
export function pct(text: string): string {
  return Array.from(text)
    .map((ch) => {
      const c = ch.codePointAt(0) ?? 0;
      if (c < 0xd800 || c > 0xdfff) return encodeURIComponent(ch);
      return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join("");
    })
    .join("");
}

/** A path id: real, random, hostile, or a string form of a wrong type. */
export function pathId(real: string[]): fc.Arbitrary<string> {
  return ids(real).map((id) => (typeof id === "string" ? id : JSON.stringify(id)));
}
