/**
 * Every field of the decision loop refuses what the database cannot store, over real HTTP, on
 * the embedded database and on PostgreSQL: a NUL or a lone surrogate in a note, an id, a
 * value, a URL or a cursor is a 400 naming the field (never a 500, never stored as U+FFFD),
 * a malformed id is a 400 or 404, and a cursor no page gave out is a 400 before any SQL runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

const BOT = "python-requests/2.31";
const UNSTORABLE = { NUL: "a\u0000b", "a lone surrogate": "a\ud800b" } as const;
const b64 = (text: string) => Buffer.from(text).toString("base64url");
const UUID = "0b5f8f8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b";

/** What a request answered: its status and the first issue's field path, when a 400 has one. */
type Answer = { status: number; path: string | undefined; message: string };
type Ctx = { merchant: Merchant; backend: Backend; screeningId: string };

describe.each(DB_KINDS)("decision-loop fields refuse what cannot be stored (%s)", (kind) => {
  let t: TestApp;
  let ctx: Ctx;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { WEBHOOKS_ALLOW_PRIVATE: "true" } });
    const merchant = await signedInMerchant(t, `storable-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    const screening = await backend.decide({ type: "request", user_agent: BOT });
    expect(screening.decision).toBe("review");
    ctx = { merchant, backend, screeningId: screening.id };
  });
  afterAll(async () => {
    await t?.close();
  });

  async function rest(
    client: Backend["client"],
    url: string,
    body?: unknown,
    method?: string,
  ): Promise<Answer> {
    const res = await client.json<{ error?: { message: string; issues?: { path: string }[] } }>(
      url,
      { body, method },
    );
    return {
      status: res.status,
      path: res.body?.error?.issues?.[0]?.path,
      message: res.body?.error?.message ?? "",
    };
  }
  async function trpc(type: "query" | "mutate", procedure: string, input: unknown) {
    const res = await ctx.merchant.browser[type](procedure, input);
    return {
      status: res.status,
      path: res.ok ? undefined : res.error.data.issues?.[0]?.path,
      message: res.ok ? "" : res.error.message,
    };
  }

  /** Each field with the request that carries `bad` in it, and the path the 400 must name. */
  const FIELDS: [string, string, (c: Ctx, bad: string) => Promise<Answer>][] = [
    [
      "POST /api/v1/labels note",
      "note",
      (c, bad) =>
        rest(c.backend.client, "/api/v1/labels", {
          subject_kind: "screening",
          subject_id: c.screeningId,
          label: "fraud",
          note: bad,
        }),
    ],
    [
      "POST /api/v1/labels subject_id",
      "subject_id",
      (c, bad) =>
        rest(c.backend.client, "/api/v1/labels", {
          subject_kind: "charge",
          subject_id: `ch_${bad}`,
          label: "fraud",
        }),
    ],
    [
      "labels.add note",
      "note",
      (c, bad) =>
        trpc("mutate", "labels.add", {
          subject_kind: "screening",
          subject_id: c.screeningId,
          label: "legitimate",
          note: bad,
        }),
    ],
    [
      "labels.history subject_id",
      "subject_id",
      (_c, bad) => trpc("query", "labels.history", { subject_kind: "charge", subject_id: bad }),
    ],
    [
      "POST /api/v1/screenings/{id}/decision note",
      "note",
      (c, bad) =>
        rest(c.backend.client, `/api/v1/screenings/${c.screeningId}/decision`, {
          decision: "approve",
          note: bad,
        }),
    ],
    [
      "review.settle note",
      "note",
      (c, bad) =>
        trpc("mutate", "review.settle", { id: c.screeningId, decision: "deny", note: bad }),
    ],
    [
      "review.settle id (a charge's)",
      "id",
      (_c, bad) => trpc("mutate", "review.settle", { id: bad, kind: "charge", decision: "deny" }),
    ],
    [
      "review.bulk note",
      "note",
      (_c, bad) =>
        trpc("mutate", "review.bulk", { filters: { kind: "charge" }, decision: "deny", note: bad }),
    ],
    [
      "allowList.add value",
      "value",
      (_c, bad) => trpc("mutate", "allowList.add", { kind: "user_id", value: bad }),
    ],
    [
      "allowList.add note",
      "note",
      (_c, bad) => trpc("mutate", "allowList.add", { kind: "user_id", value: "u1", note: bad }),
    ],
    ["allowList.remove id", "id", (_c, bad) => trpc("mutate", "allowList.remove", { id: bad })],
    [
      "webhooks.createEndpoint url",
      "url",
      (_c, bad) =>
        trpc("mutate", "webhooks.createEndpoint", {
          url: `http://127.0.0.1:9/${bad}`,
          events: ["label.created"],
        }),
    ],
    [
      "webhooks.removeEndpoint id",
      "id",
      (_c, bad) => trpc("mutate", "webhooks.removeEndpoint", { id: bad }),
    ],
    ["webhooks.resend id", "id", (_c, bad) => trpc("mutate", "webhooks.resend", { id: bad })],
    ["review.detail id", "id", (_c, bad) => trpc("query", "review.detail", { id: bad })],
  ];

  const cases = FIELDS.flatMap(([name, path, send]) =>
    Object.entries(UNSTORABLE).map(([what, bad]) => [name, what, path, send, bad] as const),
  );

  it.each(cases)("%s with %s → 400 naming the field", async (_name, _what, path, send, bad) => {
    const answer = await send(ctx, bad);
    expect(answer, JSON.stringify(answer)).toMatchObject({ status: 400, path });
  });

  it("stored none of them, not even as U+FFFD", async () => {
    const rows = await t.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT (SELECT count(*) FROM "Label") + (SELECT count(*) FROM "AllowEntry")
        + (SELECT count(*) FROM "WebhookEndpoint")
        + (SELECT count(*) FROM "Screening" WHERE "reviewStatus" IS NOT NULL) AS n`;
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it.each([
    ["a NUL", "%00", 400, "id"],
    ["not a UUID", "not-a-screening", 400, "id"],
    // Fastify refuses a path that does not decode as UTF-8 before any route sees it.
    ["a lone surrogate (invalid UTF-8)", "%ED%A0%80", 400, undefined],
    ["a UUID no screening has", UUID, 404, undefined],
  ])("GET /api/v1/screenings/{id} with %s → %s %s", async (_what, id, status, path) => {
    const answer = await rest(ctx.backend.client, `/api/v1/screenings/${id}`);
    expect(answer, JSON.stringify(answer)).toMatchObject({ status, path });
  });

  it.each([
    ["POST /api/v1/screenings/{id}/decision", `/api/v1/screenings/%00/decision`],
    ["POST /api/v1/screenings/{id}/decision (not a UUID)", `/api/v1/screenings/x%20y/decision`],
  ])("%s with a malformed id is a 400 naming id", async (_name, url) => {
    const answer = await rest(ctx.backend.client, url, { decision: "approve" });
    expect(answer, JSON.stringify(answer)).toMatchObject({ status: 400, path: "id" });
  });

  it("ids that are UUIDs refuse what is not one, with the reason", async () => {
    for (const procedure of ["allowList.remove", "webhooks.removeEndpoint", "webhooks.resend"]) {
      const answer = await trpc("mutate", procedure, { id: "not-a-uuid" });
      expect(answer, procedure).toMatchObject({ status: 400, path: "id" });
      expect(answer.message, procedure).toMatch(/UUID/);
    }
    // A well-formed id that names nothing is still a 404.
    expect((await trpc("mutate", "allowList.remove", { id: UUID })).status).toBe(404);
  });

  /** Cursors no page gave out: each is refused before it reaches SQL. */
  const CURSORS: [string, string][] = [
    ["a screening at year +275760", b64(`+275760-09-13T00:00:00.000Z|screening|${UUID}`)],
    ["a charge at year +275760", b64("+275760-09-13T00:00:00.000Z|charge|ch_1")],
    ["a screening at year 10000", b64(`+010000-01-01T00:00:00.000Z|screening|${UUID}`)],
    ["a charge past 2038 (a 32-bit time)", b64("2100-01-01T00:00:00.000Z|charge|ch_1")],
    ["a time before 1970", b64(`1969-12-31T23:59:59.000Z|screening|${UUID}`)],
    ["a NUL in the id", b64("2026-01-01T00:00:00.000Z|charge|ch_\u0000")],
    ["a NUL itself", "\u0000"],
    ["a lone surrogate", "\ud800"],
  ];

  it.each(CURSORS)("review.queue refuses a cursor with %s → 400 cursor", async (_name, cursor) => {
    const answer = await trpc("query", "review.queue", { cursor });
    expect(answer, JSON.stringify(answer)).toMatchObject({ status: 400, path: "cursor" });
  });

  it("review.queue reads a cursor at a far but storable time (year 2100) as past every item", async () => {
    const cursor = b64(`2100-01-01T00:00:00.000Z|screening|${UUID}`);
    const res = await ctx.merchant.browser.query("review.queue", { cursor });
    expect(res).toMatchObject({ ok: true, data: { items: [], nextCursor: null } });
  });

  it.each([
    ["year +275760", b64(`+275760-09-13T00:00:00.000Z|${UUID}`)],
    ["year 10000", b64(`+010000-01-01T00:00:00.000Z|${UUID}`)],
    ["a NUL", "\u0000"],
    ["a lone surrogate", "\ud800"],
  ])("screenings.list refuses a cursor at %s → 400 cursor", async (_name, cursor) => {
    const answer = await trpc("query", "screenings.list", { cursor });
    expect(answer, JSON.stringify(answer)).toMatchObject({ status: 400, path: "cursor" });
  });
});
