/**
 * The proof of issue 35 (docs/privacy.md), on the embedded database and on PostgreSQL, over
 * real HTTP: one person is seeded through the real API (browser signals, screenings, a review
 * settled with a note, a label, an allow-list entry, a charge through a signed Stripe webhook,
 * decision webhook deliveries), every text and JSON column of every table is searched for their
 * email, IP, user id and device id (test/helpers/personal-data.ts), they are erased through
 * POST /api/v1/end-users/erase, and the search then finds none of those values anywhere, while
 * another person of the same account, and a person with the same email in another account,
 * are untouched. Then the same for a person whose data is past its retention once
 * housekeeping has run: three years old at the default retention, and 45 days old where the
 * merchant set each kind to a week (retention.put).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import defaultWeights from "../../server/engine/default-weights.json" with { type: "json" };
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import {
  allowOrigins,
  humanSignals,
  publishableKeyOf,
  SHOP,
  tokenWithHeaders,
} from "../helpers/collector.ts";
import { DB_KINDS, type DbKind, openTestDatabase } from "../helpers/databases.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import {
  describeHits,
  findRawValues,
  placesOf,
  type RawValueHit,
  snapshotDiff,
  snapshotTables,
  storedForms,
  type TableSnapshot,
} from "../helpers/personal-data.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";
import { startWebhookReceiver } from "../helpers/webhook-receiver.ts";

const DAY = 86_400_000;
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
/** rule_scraping reviews a request from a user agent isbot recognises. */
const BOT = "python-requests/2.31";

type Person = { email: string; ip: string; userId: string; deviceId: string };
const valuesOf = (p: Person) => [p.email, p.ip, p.userId, p.deviceId];
/** A person whose user id is usr_`tag` and device id dev_`tag`. */
const person = (email: string, ip: string, tag: string): Person => ({
  email,
  ip,
  userId: `usr_${tag}`,
  deviceId: `dev_${tag}`,
});

/** The person to erase; their email is sent in mixed case, and stored as each place stores it. */
const ERIN = person("Erin.Proof+1@Proof-Person.example", "203.0.113.77", "proof_77");
/** Another person of the same account: kept. */
const SAM = person("Sam.Second@second-person.example", "198.51.100.22", "second_22");
/** Erin's email, at another merchant: kept (an erasure is the account's own). */
const ERIN_ELSEWHERE = person("erin.proof+1@proof-person.example", "192.0.2.31", "elsewhere_31");
/** Seeded three years ago, then past every retention. */
const OLGA = person("Olga.Old@old-person.example", "203.0.113.99", "old_99");
/** Seeded now, beside Olga: inside every retention, kept. */
const NINA = person("Nina.Now@now-person.example", "198.51.100.55", "now_55");

/** Seeded 45 days ago where the merchant keeps each kind for a week (the audit log 30 days). */
const PIA = person("Pia.Short@short-person.example", "203.0.113.121", "short_121");
/** Seeded now beside Pia: kept. */
const QUINN = person("Quinn.Fresh@fresh-person.example", "198.51.100.121", "fresh_121");

/** The tables one seeded person's values must be found in (proves the search and the seeding). */
const EXPECTED_TABLES = [
  "AllowEntry",
  "AuditEvent",
  "Label",
  "Screening",
  "SignalToken",
  "Transaction",
  "WebhookDelivery",
];

/**
 * Values that broke the regular-expression sweep of the first erasure (issue 41): numbers and
 * JSON literals, JSON and regex and LIKE syntax, words that are also rule keys, template
 * keys, decisions, event types, currencies, countries and statuses, the shop's own origin,
 * Unicode case pairs, an IPv6 address inside a longer one, an IPv4 address asked for in its
 * IPv4-mapped form. Each is one person's; the neighbour's near miss must stay as it was.
 */
type SelectorKind = "user_id" | "email" | "device_id" | "ip" | "card_fingerprint";
type OddCase = { kind: SelectorKind; value: string; neighbour: string; askedAs?: string };
const ODD: OddCase[] = [
  { kind: "user_id", value: "2", neighbour: "22" },
  { kind: "user_id", value: "1003", neighbour: "10035" },
  { kind: "user_id", value: "true", neighbour: "True" },
  { kind: "user_id", value: "null", neighbour: "nullable" },
  { kind: "user_id", value: "{", neighbour: "{{" },
  { kind: "user_id", value: '"', neighbour: "'" },
  { kind: "user_id", value: "a", neighbour: "b" },
  { kind: "user_id", value: "ALICE", neighbour: "alice" },
  { kind: "user_id", value: "Änne", neighbour: "änne" },
  { kind: "user_id", value: "a.b*c+?(x)|[y]%_\\", neighbour: "a.b*c+?(x)|[y]%_\\z" },
  { kind: "user_id", value: "rule_email", neighbour: "rule_emails" },
  { kind: "user_id", value: "template_account_farm_shield", neighbour: "template" },
  { kind: "user_id", value: "KP", neighbour: "KPX" },
  { kind: "user_id", value: "block", neighbour: "blocked" },
  { kind: "user_id", value: "review", neighbour: "reviewer" },
  { kind: "user_id", value: "signup", neighbour: "signups" },
  { kind: "user_id", value: "adopted", neighbour: "adopter" },
  { kind: "user_id", value: "usd", neighbour: "eur" },
  { kind: "user_id", value: "v1", neighbour: "v2" },
  { kind: "user_id", value: "fraud", neighbour: "frauds" },
  { kind: "user_id", value: SHOP, neighbour: `${SHOP}/x` },
  { kind: "email", value: "2@odd.example", neighbour: "22@odd.example" },
  { kind: "email", value: "{@odd.example", neighbour: "{{@odd.example" },
  {
    kind: "email",
    value: "a.b*c+?(x)|[y]%_@odd.example",
    neighbour: "a.b*c+?(x)|[y]%_@odd.example.org",
  },
  {
    kind: "email",
    value: "Ölga@Odd.example",
    askedAs: "ÖLGA@odd.EXAMPLE",
    neighbour: "olga@odd.example",
  },
  { kind: "device_id", value: "2", neighbour: "22" },
  { kind: "device_id", value: "null", neighbour: "nul" },
  { kind: "device_id", value: "%_", neighbour: "x%_" },
  { kind: "device_id", value: "Äd", neighbour: "äd" },
  { kind: "ip", value: "2001:db8::1", neighbour: "2001:db8::1:5" },
  { kind: "ip", value: "203.0.113.9", askedAs: "::ffff:203.0.113.9", neighbour: "203.0.113.90" },
  { kind: "card_fingerprint", value: "2", neighbour: "22" },
  { kind: "card_fingerprint", value: "fp_Odd", neighbour: "fp_odd" },
];

const ALLOW_KIND: Record<SelectorKind, string> = {
  user_id: "user_id",
  email: "email",
  device_id: "device",
  ip: "ip_cidr",
  card_fingerprint: "card_fingerprint",
};

/** Tables that change on their own (sign-in sessions, throttles): not compared. */
const MOVING_TABLES = new Set(["Session", "RateLimit"]);

/** A snapshot without what every API call moves: an API key's last use. */
async function stillSnapshot(t: TestApp): Promise<TableSnapshot> {
  const snapshot = await snapshotTables(t.database, MOVING_TABLES);
  for (const [key, content] of snapshot) {
    if (!key.startsWith("ApiKey ")) continue;
    const { lastUsedAt: _moving, ...row } = JSON.parse(content) as Record<string, unknown>;
    snapshot.set(key, JSON.stringify(row));
  }
  return snapshot;
}

/** Every decision webhook of the account delivered: nothing moves in the background. */
async function settled(t: TestApp, accountId: string) {
  await expect
    .poll(() => t.prisma.webhookDelivery.count({ where: { accountId, status: "pending" } }), {
      timeout: 30_000,
    })
    .toBe(0);
}

/**
 * Whether `text` holds `value` as a whole value: not inside a longer id, email or address (a
 * letter, digit or one of _ . @ + - : \\ on either side), in any case for an email.
 */
function holdsWhole(text: string, value: string, anyCase: boolean): boolean {
  const hay = anyCase ? text.toLowerCase() : text;
  const needle = anyCase ? value.toLowerCase() : value;
  const joins = /[\p{L}\p{N}_.@+\-:\\]/u;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    const before = at > 0 ? (hay[at - 1] as string) : "";
    const after = hay.slice(at + needle.length, at + needle.length + 2);
    const afterJoins =
      after !== "" &&
      joins.test(after[0] as string) &&
      !(after[0] === "." && !/[\p{L}\p{N}]/u.test(after[1] ?? ""));
    if (!(before && joins.test(before)) && !afterJoins) return true;
  }
  return false;
}

/** Row fields that are Warden's own ids, codes and times, never a person's words. */
const CODE_FIELDS = new Set([
  "id",
  "accountId",
  "screeningId",
  "subjectId",
  "subjectKind",
  "chargeId",
  "endpointId",
  "eventId",
  "eventType",
  "keyHash",
  "tokenHash",
  "apiKeyId",
  "sourceRef",
  "decision",
  "type",
  "kind",
  "rule",
  "rules",
  "action",
  "signal",
  "feature",
  "status",
  "label",
  "source",
  "reviewStatus",
  "currency",
  "country",
  "actorKind",
  "actorId",
  "actor",
  "ip",
  "target",
  // Words Warden makes of the target when the event is written (audit-labels.ts): a member's
  // email, a key's name, a screening's type, decision and score; never an end user's value. A
  // user_id "review" is found in "request screening (sent to review, score 52)" otherwise.
  "targetLabel",
  "createdAt",
  "updatedAt",
  "at",
  "expiresAt",
  "consumedAt",
  "reviewedAt",
  "nextAttemptAt",
  "deliveredAt",
  "lockedUntil",
  "attemptLog",
  "reviewedBy",
  "who",
  "addedBy",
  "value_digest",
  "subject",
  "userId_digest",
  "screening_id",
  "subject_id",
  "subject_kind",
  "created",
  "created_at",
  "erasure_id",
  "through",
  "origin",
  "score",
  "points",
]);

/**
 * Where a row (as to_jsonb made it) still holds the value: a string anywhere but a code field,
 * as a whole value inside it; or any leaf equal to it at a personal field.
 */
function holdings(content: string, value: string, anyCase: boolean, table: string): string[] {
  const found: string[] = [];
  const walk = (node: unknown, path: string, field: string) => {
    if (CODE_FIELDS.has(field)) return;
    if (table === "ScreeningIdentity") return; // keyed digests only (kept, decision 029)
    if (typeof node === "string") {
      // A JSON document kept as text (a webhook delivery's body) is read as JSON.
      if (/^[[{]/.test(node)) {
        try {
          walk(JSON.parse(node), `${path}(json)`, field);
          return;
        } catch {}
      }
      if (holdsWhole(node, value, anyCase)) found.push(`${path}=${JSON.stringify(node)}`);
    } else if (typeof node === "number" || typeof node === "boolean") {
      if (/user_?id|device|fingerprint/i.test(field) && String(node) === value) {
        found.push(`${path}=${node}`);
      }
    } else if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${path}[${i}]`, field);
    } else if (node !== null && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) walk(v, `${path}.${k}`, k);
    }
  };
  walk(JSON.parse(content), "", "");
  return found;
}

/** The rows a step added to the database: "Table key" of each. */
async function rowsAddedBy(t: TestApp, step: () => Promise<void>): Promise<string[]> {
  const before = await stillSnapshot(t);
  await step();
  return snapshotDiff(before, await stillSnapshot(t)).added;
}

describe.each(DB_KINDS)("findRawValues (%s)", (kind: DbKind) => {
  it("finds a value in a text column, a nested JSON string, a text[] element, in any case", async () => {
    const database = await openTestDatabase(kind);
    try {
      const db = database.sql;
      // A table made here, after the helper was written: found through information_schema.
      await db.query(`CREATE TABLE "ProofScratch" (
        "id" text PRIMARY KEY, "plain" text, "short" varchar(80), "doc" jsonb, "raw" json,
        "tags" text[], "amount" integer)`);
      await db.query(
        `INSERT INTO "ProofScratch" VALUES
          ('r1', 'Mail from ERIN.PROOF+1@PROOF-PERSON.EXAMPLE today', NULL, NULL, NULL, NULL, 1),
          ('r2', NULL, NULL, $1::jsonb, NULL, NULL, 2),
          ('r3', NULL, NULL, NULL, NULL, ARRAY['other', 'USR_PROOF_77'], 3),
          ('r4', NULL, 'from Dev_Proof_77', NULL, $2::json, NULL, 4),
          ('r5', 'usrXproofX77 203.0.113.7 other@example.com', NULL, '{"ip": "203.0.113.770"}', NULL, ARRAY['usr_proof_7'], 5)`,
        [
          JSON.stringify({ outer: { list: [1, { ip: "203.0.113.77" }] } }),
          // A JSON document kept as a string inside JSON (a webhook body in a log): escaped twice.
          JSON.stringify({
            body: JSON.stringify({ email: 'say "Erin.Proof+1@proof-person.example"' }),
          }),
        ],
      );
      const hits = await findRawValues(database, valuesOf(ERIN));
      const found = hits
        .filter((hit) => hit.table === "ProofScratch")
        .map((hit) => `${hit.column} ${hit.row} ${hit.value}`)
        .sort();
      expect(found).toEqual([
        `doc r2 ${ERIN.ip}`,
        // "203.0.113.770" holds "203.0.113.77": the search is for substrings, on the safe side.
        `doc r5 ${ERIN.ip}`,
        `plain r1 ${ERIN.email}`,
        `raw r4 ${ERIN.email}`,
        `short r4 ${ERIN.deviceId}`,
        `tags r3 ${ERIN.userId}`,
      ]);
      // LIKE's "_" is literal: "usrXproofX77" and "usr_proof_7" are not usr_proof_77.
      expect(found.filter((line) => line.includes("r5"))).toEqual([`doc r5 ${ERIN.ip}`]);
      // The same through Prisma's raw queries.
      expect((await findRawValues(database.prisma, [ERIN.userId])).map((h) => h.row)).toEqual([
        "r3",
      ]);
      expect(await findRawValues(database, ["nobody@nowhere.example"])).toEqual([]);
      expect(storedForms('a"b')).toEqual(['a"b', 'a\\"b', 'a\\\\\\"b']);
    } finally {
      await database.close();
    }
  });
});

/** A merchant set up to receive everything a person can leave behind. */
async function shopOf(t: TestApp, name: string, receiverUrl: string) {
  const merchant = await signedInMerchant(t, `${name}@example.com`);
  const backend = await backendOf(t, merchant);
  await allowOrigins(merchant, [SHOP]);
  const publishable = await publishableKeyOf(merchant);
  await turnOn(merchant, "rule_scraping");
  const stripe = await connectStripe(merchant);
  const endpoint = await merchant.browser.mutate("webhooks.createEndpoint", {
    url: receiverUrl,
    events: [
      "screening.blocked",
      "screening.review",
      "review.approved",
      "review.denied",
      "label.created",
      "end_user.erased",
    ],
  });
  expect(endpoint, JSON.stringify(endpoint)).toMatchObject({ ok: true });
  return { merchant, backend, publishableKey: publishable.key, stripe };
}
type Shop = Awaited<ReturnType<typeof shopOf>>;

/** Everything one person leaves in an account, sent through the real API as merchants do. */
async function seedPerson(
  t: TestApp,
  shop: Shop,
  person: Person,
  options: { allowExpiresAt?: Date } = {},
) {
  const { merchant, backend } = shop;
  // Browser signals: warden.js's collect from the person's browser (behind the shop's proxy,
  // so the collector sees their address), then the backend screens with the token.
  for (const type of ["signup", "trial_start", "checkout"] as const) {
    const token = await tokenWithHeaders(
      t,
      shop.publishableKey,
      { "user-agent": CHROME, "x-forwarded-for": person.ip },
      humanSignals({ device_id: person.deviceId }),
    );
    const answer = await backend.screen({
      type,
      email: person.email,
      user_id: person.userId,
      ip: person.ip,
      device_id: person.deviceId,
      user_agent: CHROME,
      signals: token,
      ...(type === "checkout" ? { amount: 4900, currency: "usd" } : {}),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.signals, `${type}'s signals`).toBe("accepted");
  }
  // A screening that goes to review, settled with a note that names them.
  const review = await backend.decide({
    type: "request",
    user_agent: BOT,
    email: person.email,
    user_id: person.userId,
    ip: person.ip,
    device_id: person.deviceId,
  });
  expect(review.decision).toBe("review");
  const settled = await backend.client.json(`/api/v1/screenings/${review.id}/decision`, {
    body: { decision: "deny", note: `Phoned ${person.email}: not them` },
  });
  expect(settled.status, JSON.stringify(settled.body)).toBe(200);
  // A label naming their user id.
  const label = await backend.client.json("/api/v1/labels", {
    body: {
      subject_kind: "screening",
      subject_id: review.id,
      label: "fraud",
      note: `${person.userId} disputed the charge`,
    },
  });
  expect(label.status, JSON.stringify(label.body)).toBe(200);
  // A charge through a signed Stripe webhook, created at the app's time.
  const charge = buildCharge({
    email: person.email,
    receiptEmail: person.email,
    created: Math.floor(t.clock.now().getTime() / 1000),
  });
  const delivered = await deliver(
    t,
    shop.stripe.path,
    buildEvent("charge.succeeded", charge, { created: charge.created }),
    shop.stripe.webhookSecret,
  );
  expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
  // An allow-list entry for their email (its audit event names it too).
  const allowed = await merchant.browser.mutate("allowList.add", {
    kind: "email",
    value: person.email,
    note: `VIP ${person.email}`,
    ...(options.allowExpiresAt ? { expires_at: options.allowExpiresAt.toISOString() } : {}),
  });
  expect(allowed, JSON.stringify(allowed)).toMatchObject({ ok: true });
  // The decision webhooks that carried them (review, its settlement, the label) are delivered.
  await expect
    .poll(
      async () =>
        (
          await t.prisma.webhookDelivery.findMany({
            where: { accountId: merchant.accountId, body: { contains: review.id } },
            select: { status: true },
          })
        ).map((row) => row.status),
      { timeout: 20_000 },
    )
    .toEqual(["delivered", "delivered", "delivered"]);
  return { reviewId: review.id, chargeId: charge.id };
}

/**
 * A later Stripe event about the person's charge (a refund, carrying their email again, as
 * Stripe's retries and follow-ups do): once the charge's personal fields were cleared, it
 * must not bring them back.
 */
async function lateRefund(t: TestApp, shop: Shop, person: Person, chargeId: string) {
  const key = { accountId_chargeId: { accountId: shop.merchant.accountId, chargeId } };
  const stored = await t.prisma.transaction.findUniqueOrThrow({ where: key });
  const charge = buildCharge({
    id: chargeId,
    email: person.email,
    receiptEmail: person.email,
    refunded: true,
    created: stored.created,
  });
  const delivered = await deliver(
    t,
    shop.stripe.path,
    buildEvent("charge.refunded", charge, { created: Math.floor(t.clock.now().getTime() / 1000) }),
    shop.stripe.webhookSecret,
  );
  expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
  const row = await t.prisma.transaction.findUniqueOrThrow({ where: key });
  expect(row).toMatchObject({ refunded: true, email: null, cardFingerprint: null });
  expect(row.personalClearedAt).not.toBeNull();
}

/** The hits for each value, and the tables each was found in. */
function summary(hits: RawValueHit[], person: Person) {
  return Object.fromEntries(valuesOf(person).map((value) => [value, placesOf(hits, value)]));
}

const tablesOf = (hits: RawValueHit[]) => [...new Set(hits.map((hit) => hit.table))].sort();

describe.each(DB_KINDS)("an end user's erasure, proved (%s)", (kind: DbKind) => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  beforeAll(async () => {
    t = await startTestApp(kind, {
      env: { WEBHOOKS_ALLOW_PRIVATE: "true", TRUST_PROXY: "1" },
    });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it("leaves no raw value of the person anywhere, and touches no one else", async () => {
    const shop = await shopOf(t, `erase-${kind}`, receiver.url);
    const elsewhere = await shopOf(t, `erase-elsewhere-${kind}`, receiver.url);
    const erin = await seedPerson(t, shop, ERIN);
    await seedPerson(t, shop, SAM);
    await seedPerson(t, elsewhere, ERIN_ELSEWHERE);

    // The search finds every value, in every table that holds a person's data.
    const before = await findRawValues(t.database, valuesOf(ERIN));
    const mine = before.filter((hit) => hit.accountId === shop.merchant.accountId);
    console.info(`[erasure-proof ${kind}] before erasure:`, JSON.stringify(summary(mine, ERIN)));
    for (const value of valuesOf(ERIN)) {
      expect(placesOf(mine, value), `${value} found before erasure`).not.toEqual([]);
    }
    expect(tablesOf(mine)).toEqual(expect.arrayContaining(EXPECTED_TABLES));

    const erased = await shop.backend.client.json<{
      erasure_id: string;
      counts: Record<string, number>;
    }>("/api/v1/end-users/erase", {
      body: { email: ERIN.email, user_id: ERIN.userId, device_id: ERIN.deviceId, ip: ERIN.ip },
    });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    expect(erased.body.counts.screenings).toBe(4);
    expect(JSON.stringify(erased.body).toLowerCase()).not.toContain(ERIN.email.toLowerCase());

    // The erasure's own webhook event is stored and delivered, with ids and counts only.
    await expect
      .poll(
        () =>
          t.prisma.webhookDelivery.count({
            where: {
              accountId: shop.merchant.accountId,
              eventType: "end_user.erased",
              status: "delivered",
            },
          }),
        { timeout: 20_000 },
      )
      .toBe(1);
    const event = receiver.ofType("end_user.erased");
    expect(event).toBeDefined();
    const audit = await t.prisma.auditEvent.findMany({
      where: { accountId: shop.merchant.accountId, action: "endUsersApi.erase" },
    });
    expect(audit).toHaveLength(1);
    const delivery = await t.prisma.webhookDelivery.findFirstOrThrow({
      where: { accountId: shop.merchant.accountId, eventType: "end_user.erased" },
    });
    // Both name the erasure, and no value it was asked about (the search below checks the
    // whole database; these say it of the two records the erasure itself wrote).
    for (const record of [JSON.stringify(audit[0]), delivery.body, JSON.stringify(event)]) {
      expect(record).toContain(erased.body.erasure_id);
      for (const value of valuesOf(ERIN)) {
        for (const form of storedForms(value)) expect(record.toLowerCase()).not.toContain(form);
      }
    }

    // Stripe refunds her charge afterwards, its event naming her again: the charge stays clear.
    await lateRefund(t, shop, ERIN, erin.chargeId);

    // Nothing of Erin is left in her merchant's account, nor in any table no account owns.
    const after = await findRawValues(t.database, valuesOf(ERIN));
    const left = after.filter((hit) => hit.accountId !== elsewhere.merchant.accountId);
    expect(left, `left after erasure:\n${describeHits(left)}`).toEqual([]);

    // Scoped: Sam, in the same account, is all still there; so is Erin's email elsewhere.
    const sam = await findRawValues(t.database, valuesOf(SAM));
    expect(tablesOf(sam)).toEqual(expect.arrayContaining(EXPECTED_TABLES));
    for (const value of valuesOf(SAM)) expect(placesOf(sam, value), value).not.toEqual([]);
    const other = await findRawValues(t.database, valuesOf(ERIN_ELSEWHERE));
    expect(tablesOf(other)).toEqual(expect.arrayContaining(EXPECTED_TABLES));
    for (const value of valuesOf(ERIN_ELSEWHERE)) {
      expect(placesOf(other, value), value).not.toEqual([]);
    }
    expect(other.every((hit) => hit.accountId === elsewhere.merchant.accountId)).toBe(true);
  });

  it("erases each selector kind, with values that broke the old sweep, and changes nothing else byte for byte", async () => {
    const shop = await shopOf(t, `odd-${kind}`, receiver.url);
    const elsewhere = await shopOf(t, `odd-elsewhere-${kind}`, receiver.url);
    const { merchant, backend } = shop;
    const accountId = merchant.accountId;

    // The account's whole configuration: rules, rule settings, templates, block list,
    // origins (shopOf), thresholds, an adopted fit, keys, endpoints with secrets, settings,
    // a teammate invited, and their audit events.
    await turnOn(merchant, "rule_email", "rule_ip");
    const put = async (path: string, body: unknown) => {
      const res = await merchant.api.json(path, { method: "PUT", body });
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
    };
    await put("/api/rule-settings", { rule_signup_velocity: { per_ip_per_hour: 42 } });
    const templates = (await merchant.api.json<Record<string, boolean>>("/api/templates")).body;
    await put("/api/templates", { ...templates, template_account_farm_shield: true });
    await put("/api/blocklist", { countries: ["KP"], email_providers: ["mailinator.com"] });
    await put("/api/scoring/thresholds", { thresholds: { signup: { review: 97, block: 99 } } });
    await t.prisma.scoreModel.create({
      data: {
        accountId,
        version: 1,
        status: "adopted",
        weights: { ...defaultWeights, version: "acct-1" },
        metrics: { labels: 12, note: "adopted" },
        createdBy: merchant.email,
        adoptedBy: merchant.email,
        adoptedAt: t.clock.now(),
      },
    });
    const invited = await merchant.browser.mutate("team.invite", {
      email: `teammate-odd-${kind}@example.com`,
      role: "analyst",
    });
    expect(invited, JSON.stringify(invited)).toMatchObject({ ok: true });

    /** One person (or neighbour): a signup, a request reviewed with a note, a label, an allow entry. */
    const seed = async (target: Shop, c: OddCase, value: string, i: number) => {
      const who = { [c.kind]: value };
      const signup = await target.backend.decide({ type: "signup", user_agent: CHROME, ...who });
      const request = await target.backend.decide({ type: "request", user_agent: BOT, ...who });
      if (request.decision === "review") {
        const decided = await target.backend.client.json(
          `/api/v1/screenings/${request.id}/decision`,
          { body: { decision: "deny", note: `Phoned ${value} back` } },
        );
        expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      }
      const label = await target.backend.client.json("/api/v1/labels", {
        body: {
          subject_kind: "screening",
          subject_id: signup.id,
          label: "fraud",
          note: `${value} disputed`,
        },
      });
      expect(label.status, JSON.stringify(label.body)).toBe(200);
      const allowed = await target.merchant.browser.mutate("allowList.add", {
        kind: ALLOW_KIND[c.kind],
        value,
        note: `VIP ${value} #${i}`,
      });
      expect(allowed, `${c.kind} ${value}: ${JSON.stringify(allowed)}`).toMatchObject({ ok: true });
      await settled(t, target.merchant.accountId);
    };

    const added = new Map<OddCase, string[]>();
    for (const [i, c] of ODD.entries()) {
      added.set(c, await rowsAddedBy(t, () => seed(shop, c, c.value, i)));
      await seed(shop, c, c.neighbour, i);
      await seed(elsewhere, c, c.value, i);
    }
    // Someone ALICE referred: their screening names her, and only that value of theirs goes.
    const referred = await backend.decide({
      type: "signup",
      user_id: "referred-by-alice",
      referrer_user_id: "ALICE",
      user_agent: CHROME,
    });

    for (const c of ODD) {
      await settled(t, accountId);
      const before = await stillSnapshot(t);
      const selector = { [c.kind]: c.askedAs ?? c.value };
      const res = await backend.client.json<{ counts: Record<string, number> }>(
        "/api/v1/end-users/erase",
        { body: selector },
      );
      const what = `${c.kind} ${JSON.stringify(c.value)}`;
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.counts.screenings, what).toBe(2);
      expect(res.body.counts.allow_entries, what).toBe(1);
      const after = await stillSnapshot(t);
      const diff = snapshotDiff(before, after);
      const mine = new Set(added.get(c));
      const referral = `Screening ${referred.id}`;

      // (b) Nothing changed but the person's own rows (and the referral's one value).
      const strayChanges = diff.changed.filter((key) => !mine.has(key) && key !== referral);
      expect(strayChanges, `${what}: changed rows not the person's`).toEqual([]);
      expect(
        diff.removed.filter((key) => !mine.has(key)),
        `${what}: removed`,
      ).toEqual([]);
      const newRows = diff.added.map((key) => JSON.parse(after.get(key) as string));
      for (const row of newRows) {
        expect(["endUsersApi.erase", "end_user.erased"], what).toContain(
          row.action ?? row.eventType,
        );
      }
      if (diff.changed.includes(referral)) {
        const was = JSON.parse(before.get(referral) as string);
        const now = JSON.parse(after.get(referral) as string);
        expect(now.input.referrer_user_id).toBe("[erased]");
        expect({ ...now, input: { ...now.input, referrer_user_id: "ALICE" } }).toEqual(was);
      }
      expect(diff.changed.includes(referral), `${what}: the referral changes only with ALICE`).toBe(
        c.value === "ALICE",
      );

      // What an erasure keeps of the person's screenings stays as it was: decision, score,
      // type, country, time, the rules and each reason's rule and action, the score's parts.
      for (const key of [...mine].filter((k) => k.startsWith("Screening "))) {
        const kept = (content: string | undefined) => {
          const row = JSON.parse(content as string);
          const codes = (
            items: { rule?: string; action?: string; signal?: string; points?: number }[] | null,
          ) =>
            (items ?? []).map(({ rule, action, signal, points }) => ({
              rule,
              action,
              signal,
              points,
            }));
          return {
            decision: row.decision,
            score: row.score,
            type: row.type,
            country: row.country,
            createdAt: row.createdAt,
            rules: row.rules,
            reasons: codes(row.reasons),
            monitored: codes(row.monitored),
            contributions: codes(row.contributions),
          };
        };
        expect(kept(after.get(key)), `${what}: kept of ${key}`).toEqual(kept(before.get(key)));
      }

      // (a) None of the person's values is left in their rows (digests aside).
      for (const key of mine) {
        const content = after.get(key);
        if (content === undefined) continue;
        const table = key.split(" ")[0] as string;
        expect(holdings(content, c.value, c.kind === "email", table), `${what} in ${key}`).toEqual(
          [],
        );
      }
    }

    // The neighbours and the other account are all still there (checked byte for byte above);
    // the configuration is as set.
    const rules = (await merchant.api.json<Record<string, unknown>>("/api/rules")).body;
    expect(rules).toMatchObject({ rule_scraping: true, rule_email: true, rule_ip: true });
    const blocklist = (await merchant.api.json<Record<string, unknown>>("/api/blocklist")).body;
    expect(blocklist).toMatchObject({ countries: ["KP"], email_providers: ["mailinator.com"] });

    // (c) The pages and their APIs still load.
    for (const [procedure, input] of [
      ["screenings.list", {}],
      ["screenings.counts", undefined],
      ["review.queue", {}],
      ["dashboard.summary", undefined],
      ["dashboard.list", {}],
      ["scoreModels.list", undefined],
      ["scoreThresholds.get", undefined],
      ["allowList.list", {}],
      ["audit.list", {}],
      ["rules.get", undefined],
      ["templates.get", undefined],
      ["allowedOrigins.get", undefined],
      ["webhooks.endpoints", undefined],
      ["webhooks.deliveries", {}],
    ] as const) {
      const answer = await merchant.browser.query(procedure, input);
      expect(answer, `${procedure}: ${JSON.stringify(answer).slice(0, 300)}`).toMatchObject({
        ok: true,
      });
    }
    const models = await merchant.api.json<{ in_force: unknown }>("/api/scoring/models");
    expect(models.status, JSON.stringify(models.body)).toBe(200);
  });

  /**
   * Seeds `old` `daysAgo` days back by the app's clock and `fresh` now, in a new account
   * (with `retention` saved first, when given), runs housekeeping once, and expects none of
   * `old`'s values anywhere and all of `fresh`'s where they were.
   */
  async function pastRetention(
    name: string,
    old: Person,
    fresh: Person,
    daysAgo: number,
    retention?: Record<string, number>,
  ) {
    const shop = await shopOf(t, `${name}-${kind}`, receiver.url);
    if (retention) {
      const put = await shop.merchant.browser.mutate("retention.put", retention);
      expect(put, JSON.stringify(put)).toMatchObject({ ok: true });
    }
    const now = t.clock.now();
    t.clock.set(new Date(now.getTime() - daysAgo * DAY));
    let seeded: Awaited<ReturnType<typeof seedPerson>>;
    try {
      // An allow-list entry with no end is the merchant's standing instruction, kept until
      // removed; this one ended a week after it was added, so it is past its use too.
      seeded = await seedPerson(t, shop, old, {
        allowExpiresAt: new Date(t.clock.now().getTime() + 7 * DAY),
      });
    } finally {
      t.clock.set(now);
    }
    await seedPerson(t, shop, fresh);
    const before = await findRawValues(t.database, valuesOf(old));
    console.info(
      `[erasure-proof ${kind}] ${name}: before housekeeping`,
      JSON.stringify(summary(before, old)),
    );
    expect(tablesOf(before)).toEqual(expect.arrayContaining(EXPECTED_TABLES));

    const removed = await t.app.services.housekeeping.purgeExpired();
    console.info(`[erasure-proof ${kind}] ${name}: housekeeping`, JSON.stringify(removed));
    // A late refund of the old charge names the person again: its cleared fields stay clear.
    await lateRefund(t, shop, old, seeded.chargeId);

    const left = await findRawValues(t.database, valuesOf(old));
    // Where a raw value outlives its retention, this names the table, column and row (soft:
    // what is kept of the fresh person is checked too).
    expect.soft(left, `kept past retention:\n${describeHits(left)}`).toEqual([]);
    const kept = await findRawValues(t.database, valuesOf(fresh));
    expect(tablesOf(kept)).toEqual(expect.arrayContaining(EXPECTED_TABLES));
    for (const value of valuesOf(fresh)) expect(placesOf(kept, value), value).not.toEqual([]);
  }

  it("leaves no raw value of a person past the default retention once housekeeping has run", async () => {
    // Nobody changed the account's retention: three years is past every default.
    await pastRetention("retention", OLGA, NINA, 3 * 365);
  });

  it("enforces a merchant's shorter retention, kind by kind, the same way", async () => {
    // Each kind at a week (the audit log at its least, 30 days); the person is 45 days old.
    await pastRetention("short-retention", PIA, QUINN, 45, {
      screenings: 7,
      collector_tokens: 1,
      identities: 7,
      webhook_deliveries: 7,
      audit_log: 30,
      charges_personal: 7,
    });
  });
});
