/**
 * An attacker's fuzz of the two endpoints a merchant's customers can reach: POST /api/v1/screen
 * with a real secret key and POST /api/v1/collect with a real publishable key from an allowed
 * origin, every rule on. Generated bodies: every field, unicode edge cases (NUL, lone
 * surrogates, RTL marks), prototype names as values and keys, huge numbers, deep nesting,
 * wrong types, malformed JSON. `warden/client` reads a 5xx as "Warden is down" and allows the
 * event, so a single 5xx is a bypass: every answer must be 200 or 4xx, and exactly the 200s
 * must be stored (a screening per 200 from screen, a token per 200 from collect).
 */

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULE_KEYS } from "../../shared/schemas/rules.ts";
import { SCREEN_TYPES } from "../../shared/schemas/screen-types.ts";
import { allowOrigins, humanSignals, publishableKeyOf, SHOP } from "../helpers/collector.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { ODD_STRINGS } from "../helpers/decision-loop-fuzz.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

const SEED = 20261125;
const SCREEN_CASES = 1500;
const COLLECT_CASES = 600;
/** Requests in flight at once: concurrency is part of what is fuzzed (locks, batches). */
const IN_FLIGHT = 8;

const PROTOTYPE_NAMES = [
  "constructor",
  "__proto__",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupSetter__",
];
const NASTY = [
  ...ODD_STRINGS,
  "\ufeff",
  "\u202e",
  "🛡️",
  "ǅ",
  "\u0085",
  "%",
  "_",
  "%_%",
  "\\",
  '\'; DROP TABLE "Screening"; --',
  "a".repeat(5000),
  "9".repeat(400),
  "NaN",
  "Infinity",
  "-0",
];
const ZONES = [
  "America/New_York",
  "Europe/Paris",
  "Asia/Kolkata",
  "Etc/UTC",
  "UTC",
  "US/Eastern",
  "Asia/Calcutta",
  "Mars/Olympus_Mons",
  "Europe/Constructor",
];
const IPS = [
  "8.8.8.8",
  "81.2.69.142",
  "1.1.1.1",
  "203.0.113.7",
  "10.0.0.1",
  "127.0.0.1",
  "0.0.0.0",
  "255.255.255.255",
  "2a00:1450:4001:80e::200e",
  "::1",
  "::",
  "::ffff:8.8.8.8",
  "fe80::1",
];

const nasty = fc.constantFrom(...NASTY, ...PROTOTYPE_NAMES);
const unicode = fc.string({ unit: "binary", maxLength: 60 });
const anyString = fc.oneof(nasty, unicode, fc.string({ maxLength: 30 }));
const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...PROTOTYPE_NAMES, "a"), fc.string({ maxLength: 5 }), {
    maxKeys: 2,
  }),
);
/**
 * A field's value: mostly plausible (so that many bodies pass validation and reach the
 * features, the rules and the database), often a prototype name or odd text, sometimes the
 * wrong type.
 */
const field = (plausible: fc.Arbitrary<unknown>, edges: fc.Arbitrary<unknown> = anyString) =>
  fc.oneof(
    { weight: 30, arbitrary: plausible },
    { weight: 1, arbitrary: edges },
    { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
    { weight: 2, arbitrary: anyString },
    { weight: 1, arbitrary: wrongType },
  );
const url = fc.oneof(fc.webUrl(), fc.constant(`${SHOP}/signup`));
const badUrl = fc.constantFrom(
  "https://evil.example/\u0000",
  "https://a.b/\ud800",
  "javascript:alert(1)",
  `https://a.b/${"x".repeat(3000)}`,
);
const number = fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom(0, 1e12, -0));
const badNumber = fc.constantFrom(1e13, Number.MAX_SAFE_INTEGER, 2 ** 64, -1, 0.5, 1e308);

const screenFields = {
  type: field(fc.constantFrom(...SCREEN_TYPES)),
  user_id: field(fc.string({ minLength: 1, maxLength: 20 })),
  email: field(
    fc.oneof(
      fc.emailAddress(),
      fc.constantFrom("a@mailinator.com", "x@constructor", "toString@valueOf"),
    ),
  ),
  ip: field(fc.oneof(fc.constantFrom(...IPS), fc.ipV4(), fc.ipV6())),
  user_agent: field(
    fc.constantFrom("Mozilla/5.0 (X11; Linux x86_64) Chrome/120", "HeadlessChrome/120", "curl/8.0"),
  ),
  device_id: field(fc.string({ minLength: 1, maxLength: 40 })),
  timezone: field(fc.constantFrom(...ZONES, ...PROTOTYPE_NAMES)),
  origin: field(url, badUrl),
  referrer: field(url, badUrl),
  url: field(url, badUrl),
  promo_code: field(fc.constantFrom("LAUNCH50", "constructor", "__proto__")),
  referral_code: field(fc.constantFrom("REF1", "toString")),
  referrer_user_id: field(fc.constantFrom("u_1", "hasOwnProperty")),
  card_fingerprint: field(fc.constantFrom("fp_1", "fp_2", "valueOf")),
  amount: field(number, badNumber),
  currency: field(fc.constantFrom("usd", "EUR", "jpy"), fc.constantFrom("xx", "constructor")),
  signals: field(
    fc.constantFrom("wdn_sig_AAAAAAAAAAAAAAAAAAAAAA", "wdn_sig_constructor_constructor"),
  ),
};

/** A JSON object of some of the fields, maybe with an unknown or prototype-named key. */
const screenObject = fc
  .tuple(
    fc.record(screenFields, { requiredKeys: [] }),
    fc.oneof(
      { weight: 9, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES, "extra") },
    ),
    fc.integer({ min: 0, max: 9 }).map((draw) => draw > 0),
  )
  .map(([body, extraKey, typed]) => {
    const out: Record<string, unknown> = typed ? { type: "signup", ...body } : { ...body };
    if (extraKey) Object.defineProperty(out, extraKey, { value: 1, enumerable: true });
    return out;
  });

const deep = fc
  .integer({ min: 20, max: 2000 })
  .map((depth) => `{"type":"signup","email":${"[".repeat(depth)}1${"]".repeat(depth)}}`);
const malformed = fc.constantFrom(
  "{",
  "[]",
  "null",
  '"text"',
  "1e999",
  '{"type":"signup",}',
  "\u0000",
  "",
);

type Body = { json: unknown } | { raw: string };
const screenBody: fc.Arbitrary<Body> = fc.oneof(
  { weight: 12, arbitrary: screenObject.map((json) => ({ json })) },
  { weight: 1, arbitrary: deep.map((raw) => ({ raw })) },
  { weight: 1, arbitrary: malformed.map((raw) => ({ raw })) },
);

const behavior = fc.record(
  {
    time_to_submit_ms: field(fc.oneof(number, fc.constant(null)), badNumber),
    pointer_events: field(number, badNumber),
    key_events: field(number, badNumber),
    key_interval_sd_ms: field(fc.oneof(number, fc.constant(null)), badNumber),
    paste_count: field(number, badNumber),
  },
  { requiredKeys: [] },
);
const collectObject = fc
  .tuple(
    fc.record(
      {
        device_id: field(fc.constantFrom("wd1_0123456789abcdef0123456789ab", "constructor_xx")),
        timezone: field(fc.constantFrom(...ZONES, ...PROTOTYPE_NAMES)),
        url: field(url, badUrl),
        referrer: field(url, badUrl),
        webdriver: field(fc.boolean()),
        behavior: field(behavior),
      },
      { requiredKeys: [] },
    ),
    fc.integer({ min: 0, max: 4 }).map((draw) => draw > 0),
  )
  .map(([body, human]) => (human ? { ...humanSignals(), ...body } : body));
const collectBody: fc.Arbitrary<Body> = fc.oneof(
  { weight: 12, arbitrary: collectObject.map((json) => ({ json })) },
  { weight: 1, arbitrary: malformed.map((raw) => ({ raw })) },
);

const wire = (body: Body) => ("raw" in body ? body.raw : JSON.stringify(body.json));

/** Runs `send` over `cases` with IN_FLIGHT at once; returns the statuses in order. */
async function pool<T>(cases: T[], send: (item: T) => Promise<number>): Promise<number[]> {
  const statuses: number[] = new Array(cases.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < cases.length) {
        const at = next++;
        statuses[at] = await send(cases[at] as T);
      }
    }),
  );
  return statuses;
}

function failuresOf(cases: Body[], statuses: number[]): string[] {
  return statuses.flatMap((status, i) =>
    status >= 500 ? [`${status} ← ${JSON.stringify(wire(cases[i] as Body)).slice(0, 300)}`] : [],
  );
}

describe.each(DB_KINDS)("screen and collect fuzz (%s)", (kind) => {
  let t: TestApp;
  let secret = "";
  let publishable = "";
  let accountId = "";

  beforeAll(async () => {
    t = await startTestApp(kind, {
      env: { SCREEN_RATE_LIMIT: "1000000", COLLECT_RATE_LIMIT: "1000000" },
    });
    const merchant = await signedInMerchant(t, `fuzz-${kind}@example.com`);
    accountId = merchant.accountId;
    await turnOn(merchant, ...RULE_KEYS.filter((key) => key.startsWith("rule_")));
    await allowOrigins(merchant, [SHOP]);
    secret = (await backendOf(t, merchant)).key;
    publishable = (await publishableKeyOf(merchant)).key;
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`answers ${SCREEN_CASES} generated screenings with 200 or 4xx, storing exactly the 200s`, async () => {
    const cases = fc.sample(screenBody, { seed: SEED, numRuns: SCREEN_CASES });
    const before = await t.prisma.screening.count({ where: { accountId } });
    const statuses = await pool(cases, async (body) => {
      const response = await fetch(`${t.baseUrl}/api/v1/screen`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: wire(body),
      });
      await response.arrayBuffer();
      return response.status;
    });
    const stored = (await t.prisma.screening.count({ where: { accountId } })) - before;
    const ok = statuses.filter((status) => status === 200).length;
    console.log(
      `screen fuzz (${kind}): ${cases.length} cases, ${ok} answered 200, ` +
        `${statuses.filter((s) => s >= 400 && s < 500).length} 4xx, ${statuses.filter((s) => s >= 500).length} 5xx`,
    );
    expect(failuresOf(cases, statuses)).toEqual([]);
    // Both kinds of answer must be exercised, or the generator has drifted (this seed: 223
    // answered 200 of 1500).
    expect(ok).toBeGreaterThan(SCREEN_CASES / 10);
    expect(statuses.length - ok).toBeGreaterThan(SCREEN_CASES / 10);
    expect(stored).toBe(ok);
  });

  it(`answers ${COLLECT_CASES} generated collects with 200 or 4xx, storing exactly the 200s`, async () => {
    const cases = fc.sample(collectBody, { seed: SEED, numRuns: COLLECT_CASES });
    const before = await t.prisma.signalToken.count({ where: { accountId } });
    const statuses = await pool(cases, async (body) => {
      const response = await fetch(
        `${t.baseUrl}/api/v1/collect?key=${encodeURIComponent(publishable)}`,
        {
          method: "POST",
          headers: { "content-type": "text/plain;charset=UTF-8", origin: SHOP },
          body: wire(body),
        },
      );
      await response.arrayBuffer();
      return response.status;
    });
    const stored = (await t.prisma.signalToken.count({ where: { accountId } })) - before;
    const ok = statuses.filter((status) => status === 200).length;
    console.log(
      `collect fuzz (${kind}): ${cases.length} cases, ${ok} answered 200, ${statuses.filter((s) => s >= 500).length} 5xx`,
    );
    expect(failuresOf(cases, statuses)).toEqual([]);
    expect(ok).toBeGreaterThan(COLLECT_CASES / 20);
    expect(stored).toBe(ok);
  });
});
