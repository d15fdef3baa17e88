/**
 * Fuzz: every tRPC procedure (from the app router's own list) and every REST route (from
 * Fastify's route list) gets malformed, huge, deeply nested and unicode input, signed in and
 * not. No answer may be a 5xx, the server must stay up, and a rejected request may store
 * nothing. Bounded (fixed seed, fixed runs) so it takes seconds in CI.
 *
 * Then the decision loop, on both databases, with a real API key and a real console session,
 * against real rows (review screenings, an allow-list entry, a webhook endpoint and its
 * deliveries): every procedure and route of review, labels, the allow list, webhooks and the
 * screenings API gets plausible fields mixed with hostile ones (NUL, lone surrogates, huge
 * numbers, wrong types, cursors no page gave out; helpers/decision-loop-fuzz.ts). Only 2xx and
 * 4xx answers pass; it prints "[fuzz] decision loop (<db>): N cases, N 5xx".
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../server/transport/trpc/app.router.ts";
import { DB_KINDS } from "./helpers/databases.ts";
import {
  type InputShape,
  inputOf,
  inputShapes,
  pathId,
  pct,
  type RealIds,
} from "./helpers/decision-loop-fuzz.ts";
import type { TrpcResult } from "./helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "./helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "./helpers/screening.ts";
import { startTestApp, type TestApp } from "./helpers/test-app.ts";

const SEED = 20261122;
const TRPC_RUNS = 30;
/**
 * A procedure without an input parser ignores what it is sent, and one that refuses an anonymous
 * caller (401) does so before it reads anything: a few runs show that.
 */
const NO_INPUT_RUNS = 4;
const REST_RUNS = 20;
/** Files (the built client, Swagger UI's assets): a path and a query to fuzz, nothing more. */
const STATIC_RUNS = 2;
const MB = 1024 * 1024;

type Procedure = {
  path: string;
  type: "query" | "mutation" | "subscription";
  takesInput: boolean;
};
const procedures: Procedure[] = Object.entries(
  appRouter._def.procedures as unknown as Record<
    string,
    { _def: { type: Procedure["type"]; inputs: unknown[] } }
  >,
).map(([path, procedure]) => ({
  path,
  type: procedure._def.type,
  takesInput: procedure._def.inputs.length > 0,
}));

/** Field names our schemas use, so generated objects get past the first check more often. */
const KEYS = [
  "email",
  "password",
  "currentPassword",
  "tokenHash",
  "cursor",
  "limit",
  "days",
  "outcome",
  "search",
  "countries",
  "email_providers",
  "rule_high_risk",
  "risk_level_threshold",
  "appName",
  "stripeSecretKey",
  "__proto__",
  "constructor",
];

const unicode = fc.string({ unit: "binary", maxLength: 80 });
const leaf = fc.oneof(
  unicode,
  fc.emailAddress(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("", " ", "\u0000", "🛡️", "ǅ", "\u202e", "a".repeat(5000), "9".repeat(400)),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("node"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), unicode), tie("node"), { maxKeys: 5 }),
  ),
})).node;
const deeplyNested = fc
  .integer({ min: 50, max: 3000 })
  .map((depth) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);
const malformed = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.constantFrom("{", "[", '{"email":', "nul", "\u0000", '{"0":{"json":', "}{", "[]]"),
);

/** What goes on the wire: a JSON value, or a raw string sent as the body itself. */
type Payload = { json: unknown } | { raw: string };
const payload: fc.Arbitrary<Payload> = fc.oneof(
  { weight: 5, arbitrary: value.map((json) => ({ json })) },
  { weight: 2, arbitrary: malformed.map((raw) => ({ raw })) },
  { weight: 1, arbitrary: deeplyNested.map((raw) => ({ raw })) },
);

const huge: Payload[] = [
  { json: { email: `${"a".repeat(300_000)}@example.com`, password: "x".repeat(300_000) } },
  { raw: `{"email":"${"a".repeat(2 * MB)}"}` },
  { json: Array.from({ length: 20_000 }, (_, i) => ({ [`k${i}`]: i })) },
];

const text = (p: Payload) => ("raw" in p ? p.raw : (JSON.stringify(p.json) ?? "null"));

describe("fuzz", () => {
  let t: TestApp;
  const routes: { method: string; url: string }[] = [];
  const figures = { cases: 0, fiveHundreds: 0, storedFromRejected: 0 };
  const failures: string[] = [];
  let userId = "";
  let accountId = "";

  beforeAll(async () => {
    t = await startTestApp("embedded", {
      onRoute: (route) => {
        for (const method of [route.method].flat()) routes.push({ method, url: route.url });
      },
    });
    const merchant = await signedInMerchant(t, "fuzz@example.com");
    userId = (await t.prisma.user.findUniqueOrThrow({ where: { email: merchant.email } })).id;
    accountId = merchant.accountId;
  });
  afterAll(async () => {
    console.log(
      `fuzz: ${figures.cases} cases, ${figures.fiveHundreds} 5xx, ${figures.storedFromRejected} rejected requests that stored something, ${procedures.length} procedures, ${routes.length} routes`,
    );
    await t?.close();
  });

  /** Row counts of everything a request could store (rate-limit counters and sessions aside). */
  async function stored(): Promise<string> {
    await t.app.services.outbox.flush();
    const rows = await t.prisma.$queryRaw<Record<string, bigint>[]>`
      SELECT (SELECT count(*) FROM "User") AS users, (SELECT count(*) FROM "Account") AS accounts,
        (SELECT count(*) FROM "EmailToken") AS tokens, (SELECT count(*) FROM "OutboxEmail") AS mails,
        (SELECT count(*) FROM "Email_list") AS waitlist, (SELECT count(*) FROM "Transaction") AS charges,
        (SELECT count(*) FROM "StripeEvent") AS events, (SELECT count(*) FROM "StripeAction") AS actions,
        (SELECT count(*) FROM "ImportJob") AS imports,
        (SELECT max("updatedAt") FROM "RuleSettings")::text AS rules,
        (SELECT max("updatedAt") FROM "TemplateSettings")::text AS templates,
        (SELECT max("updatedAt") FROM "Blocklist")::text AS blocklist,
        (SELECT max("updatedAt") FROM "MerchantSettings")::text AS settings,
        (SELECT string_agg("passwordHash", ',' ORDER BY id) FROM "User") AS passwords`;
    return JSON.stringify(rows[0], (_k, v) => (typeof v === "bigint" ? Number(v) : v));
  }

  /**
   * What was stored after the last case. Nothing writes between two cases but the session
   * `bearer` makes (not counted), so it is the next case's "before": one count a case, not two.
   */
  let storedNow: string | undefined;

  /** Sends one case and checks the three promises; returns the status. */
  async function check(label: string, send: () => Promise<Response>): Promise<number> {
    const before = storedNow ?? (await stored());
    let status: number;
    try {
      const response = await send();
      status = response.status;
      await response.arrayBuffer();
    } catch (error) {
      // The server hung up on a body it refused (e.g. 431, 413 mid-upload): still alive?
      status = 0;
      const health = await fetch(`${t.baseUrl}/healthz`);
      if (health.status !== 200) throw new Error(`${label}: server down after ${error}`);
    }
    figures.cases++;
    if (status >= 500) {
      figures.fiveHundreds++;
      failures.push(`${label} → ${status}`);
    }
    storedNow = await stored();
    if ((status >= 400 || status === 0) && storedNow !== before) {
      figures.storedFromRejected++;
      failures.push(`${label} → ${status} but stored something`);
    }
    return status;
  }

  async function bearer(signedIn: boolean): Promise<Record<string, string>> {
    if (!signedIn) return {};
    // A fresh session per case: auth.logout may end the previous one.
    const { token } = await t.app.services.sessions.create(userId, accountId);
    return { authorization: `Bearer ${token}` };
  }

  async function callProcedure(procedure: Procedure, signedIn: boolean, p: Payload) {
    const headers = await bearer(signedIn);
    const label = `${signedIn ? "signed-in" : "anonymous"} ${procedure.path} ${text(p).slice(0, 120)}`;
    return check(label, () =>
      procedure.type === "query"
        ? fetch(`${t.baseUrl}/trpc/${procedure.path}?input=${encodeURIComponent(text(p))}`, {
            headers,
          })
        : fetch(`${t.baseUrl}/trpc/${procedure.path}`, {
            method: "POST",
            headers: { ...headers, "content-type": "application/json" },
            body: text(p),
          }),
    );
  }

  it("walks every tRPC procedure of the app router", () => {
    expect(procedures.length).toBeGreaterThanOrEqual(20);
    expect(procedures.map((p) => p.path)).toContain("auth.login");
  });

  it.each(procedures.map((p) => [p.path, p] as const))(
    "tRPC %s: no 5xx, nothing stored when rejected",
    async (_path, procedure) => {
      for (const signedIn of [false, true]) {
        // Keep per-IP limits from turning every later case into a 429.
        t.clock.advance(61 * 60_000);
        const refused = !signedIn && (await callProcedure(procedure, false, { json: {} })) === 401;
        await fc.assert(
          fc.asyncProperty(payload, async (p) => {
            await callProcedure(procedure, signedIn, p);
          }),
          {
            numRuns: procedure.takesInput && !refused ? TRPC_RUNS : NO_INPUT_RUNS,
            seed: SEED,
            endOnFailure: true,
          },
        );
        for (const p of huge) await callProcedure(procedure, signedIn, p);
      }
      expect(failures).toEqual([]);
    },
  );

  it("walks every REST route Fastify registered, with fuzzed paths, queries and bodies", async () => {
    // HEAD mirrors GET; fetch() cannot send TRACE; tRPC's GET and POST were fuzzed above.
    const targets = routes.filter(
      (r) =>
        !["HEAD", "TRACE"].includes(r.method) &&
        !(r.url.startsWith("/trpc/") && ["GET", "POST"].includes(r.method)),
    );
    const isFile = (url: string) =>
      /\.[a-z0-9]+$/i.test(url) && !url.startsWith("/api/") && !url.includes(":");
    expect(targets.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        "PUT /api/rules",
        "GET /api/dashboard",
        "POST /webhooks/stripe/:endpointId",
      ]),
    );
    const segment = fc.oneof(unicode, fc.constantFrom("..", "%00", "a".repeat(6000), "🛡️"));
    for (const route of targets) {
      for (const signedIn of [false, true]) {
        t.clock.advance(61 * 60_000);
        const hasBody = route.method !== "GET" && route.method !== "DELETE";
        const send = async (p: Payload, param: string, query: string) => {
          const path = route.url
            .replace(/:[A-Za-z]+/g, encodeURIComponent(param))
            .replace("*", encodeURIComponent(param));
          const headers = await bearer(signedIn);
          return check(`${signedIn ? "signed-in" : "anonymous"} ${route.method} ${path}`, () =>
            fetch(`${t.baseUrl}${path}?limit=${encodeURIComponent(query)}`, {
              method: route.method,
              headers: hasBody ? { ...headers, "content-type": "application/json" } : headers,
              body: hasBody ? text(p) : undefined,
            }),
          );
        };
        const refused = !signedIn && (await send({ json: {} }, "x", "1")) === 401;
        await fc.assert(
          fc.asyncProperty(payload, segment, unicode, async (p, param, query) => {
            await send(p, param, query);
          }),
          {
            numRuns:
              isFile(route.url) || route.url.startsWith("/api/docs/static")
                ? STATIC_RUNS
                : refused
                  ? NO_INPUT_RUNS
                  : REST_RUNS,
            seed: SEED,
            endOnFailure: true,
          },
        );
      }
    }
    expect(failures).toEqual([]);
    expect((await fetch(`${t.baseUrl}/healthz`)).status).toBe(200);
    // Every route, twice, 20 runs each: over 40 routes now, more than the default 30 s when
    // the machine is busy.
  }, 180_000);
});

/** The decision loop's tRPC procedures (a namespace's new ones are fuzzed too) and inputs. */
const LOOP_NAMESPACES = [
  "review",
  "labels",
  "labelsApi",
  "screeningsApi",
  "allowList",
  "webhooks",
  "screenings",
];
const PROCEDURE_SHAPES: Record<string, InputShape> = {
  "labels.add": "labelInput",
  "labelsApi.create": "labelInput",
  "labels.history": "labelSubject",
  "review.queue": "queue",
  "review.settle": "settle",
  "review.bulk": "bulk",
  "review.detail": "screeningRef",
  "screeningsApi.get": "screeningRef",
  "screeningsApi.decide": "settleApi",
  "screenings.list": "list",
  "allowList.add": "allowAdd",
  "allowList.remove": "allowRef",
  "webhooks.createEndpoint": "endpoint",
  "webhooks.removeEndpoint": "endpointRef",
  "webhooks.enableEndpoint": "endpointRef",
  "webhooks.resend": "deliveryRef",
};
/** REST routes of the decision loop, and the input their body takes (by path and method). */
const LOOP_ROUTE = /^\/api\/.*(label|screenings|charges|review|allow|webhook|deliver)/i;
const ROUTE_BODY: [RegExp, InputShape][] = [
  [/labels$/, "labelInput"],
  [/decision$/, "decision"],
  [/allow-?list$/i, "allowAdd"],
  [/webhook/i, "endpoint"],
];
const LOOP_RUNS = 100;

describe.each(DB_KINDS)("fuzz: the decision loop (%s)", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  let backend: Backend;
  const routes: { method: string; url: string }[] = [];
  const real: RealIds = {
    screenings: [],
    allowEntries: [],
    endpoints: [],
    deliveries: [],
    cursors: [],
  };
  const figures = { cases: 0, fiveHundreds: 0, ok: 0 };
  const failures: string[] = [];

  beforeAll(async () => {
    // Endpoints on this machine only (127.0.0.1:1, nothing listens): saving one needs this.
    t = await startTestApp(kind, {
      env: { WEBHOOKS_ALLOW_PRIVATE: "true" },
      onRoute: (route) => {
        for (const method of [route.method].flat()) routes.push({ method, url: route.url });
      },
    });
    merchant = await signedInMerchant(t, `fuzz-loop-${kind}@example.com`);
    backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    for (let i = 0; i < 30; i++) {
      const answer = await backend.decide({
        type: "request",
        user_agent: "python-requests/2.31",
        user_id: `u${i % 5}`,
        email: `c${i % 3}@example.com`,
      });
      real.screenings.push(answer.id);
      t.clock.advance(1000);
    }
    const ok = <T>(res: TrpcResult<T>): T => {
      if (!res.ok) throw new Error(JSON.stringify(res.error));
      return res.data;
    };
    const browser = merchant.browser;
    const endpoint = ok(
      await browser.mutate<{ id: string }>("webhooks.createEndpoint", {
        url: "http://127.0.0.1:1/hook",
        events: ["label.created", "review.approved", "review.denied"],
      }),
    );
    real.endpoints.push(endpoint.id);
    const allowed = ok(
      await browser.mutate<{ id: string }>("allowList.add", { kind: "user_id", value: "u-ok" }),
    );
    real.allowEntries.push(allowed.id);
    ok(
      await browser.mutate("labels.add", {
        subject_kind: "screening",
        subject_id: real.screenings[0],
        label: "fraud",
      }),
    );
    const deliveries = ok(await browser.query<{ id: string }[]>("webhooks.deliveries"));
    real.deliveries.push(...deliveries.map((d) => d.id));
    for (const procedure of ["review.queue", "screenings.list"]) {
      const page = ok(await browser.query<{ nextCursor: string }>(procedure, { limit: 2 }));
      real.cursors.push(page.nextCursor);
    }
    expect(real.deliveries.length).toBeGreaterThan(0);
  });
  afterAll(async () => {
    console.log(
      `[fuzz] decision loop (${kind}): ${figures.cases} cases, ${figures.fiveHundreds} 5xx (${figures.ok} answered 2xx)`,
    );
    await t?.close();
  });

  async function send(label: string, request: () => Promise<Response>) {
    let status: number;
    try {
      const response = await request();
      status = response.status;
      await response.arrayBuffer();
    } catch (error) {
      status = 0;
      failures.push(`${label} → ${error}`);
    }
    figures.cases++;
    if (status < 300) figures.ok++;
    if (status >= 500) {
      figures.fiveHundreds++;
      failures.push(`${label} → ${status}`);
    }
  }

  const loopProcedures = () =>
    procedures.filter((p) => LOOP_NAMESPACES.includes(p.path.split(".")[0] ?? ""));

  it("finds the decision loop's procedures and routes", () => {
    expect(loopProcedures().map((p) => p.path)).toEqual(
      expect.arrayContaining(Object.keys(PROCEDURE_SHAPES)),
    );
    expect(routes.filter((r) => LOOP_ROUTE.test(r.url)).map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        "POST /api/v1/labels",
        "GET /api/v1/screenings/:id",
        "POST /api/v1/screenings/:id/decision",
        "GET /api/v1/charges/:id",
        "POST /api/v1/charges/:id/decision",
        "GET /api/allowlist",
        "POST /api/allowlist",
        "DELETE /api/allowlist/:id",
      ]),
    );
  });

  it("answers every tRPC procedure of the loop with a 2xx or a 4xx, signed in as the console or with an API key", async () => {
    failures.length = 0;
    const shapes = inputShapes(real);
    const anyShape = fc.oneof(...Object.values(shapes));
    for (const procedure of loopProcedures()) {
      t.clock.advance(61 * 60_000);
      const shape = PROCEDURE_SHAPES[procedure.path];
      const input = inputOf(shape ? shapes[shape] : anyShape);
      // The backend's procedures take the API key; the console's take its session cookie.
      const client = /Api\./.test(procedure.path) ? backend.client : merchant.browser;
      await fc.assert(
        fc.asyncProperty(input, async (value) => {
          const body = JSON.stringify(value) ?? "null";
          await send(`${procedure.path} ${body.slice(0, 160)}`, () =>
            procedure.type === "query"
              ? client.request(`/trpc/${procedure.path}?input=${encodeURIComponent(body)}`)
              : client.request(`/trpc/${procedure.path}`, {
                  method: "POST",
                  headers: { "content-type": "application/json" },
                  body,
                }),
          );
        }),
        { numRuns: procedure.takesInput ? LOOP_RUNS : NO_INPUT_RUNS, seed: SEED },
      );
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("answers every REST route of the loop with a 2xx or a 4xx, with fuzzed ids, queries and bodies", async () => {
    failures.length = 0;
    const shapes = inputShapes(real);
    const anyShape = fc.oneof(...Object.values(shapes));
    const allIds = [
      ...real.screenings,
      ...real.allowEntries,
      ...real.endpoints,
      ...real.deliveries,
    ];
    const query = fc.oneof(shapes.queue, shapes.list);
    const targets = routes.filter(
      (r) => LOOP_ROUTE.test(r.url) && !["HEAD", "OPTIONS", "TRACE"].includes(r.method),
    );
    for (const route of targets) {
      t.clock.advance(61 * 60_000);
      const bodyShape = ROUTE_BODY.find(([pattern]) => pattern.test(route.url))?.[1];
      const body = inputOf(bodyShape ? shapes[bodyShape] : anyShape);
      // The backend's routes (/api/v1) take the API key; the console's take its bearer token.
      const client = route.url.startsWith("/api/v1/") ? backend.client : merchant.api;
      await fc.assert(
        fc.asyncProperty(pathId(allIds), query, body, async (id, params, value) => {
          const path = route.url.replace(/:[A-Za-z]+/g, pct(id));
          const search = Object.entries(params)
            .map(([k, v]) => `${k}=${pct(typeof v === "string" ? v : (JSON.stringify(v) ?? ""))}`)
            .join("&");
          const hasBody = route.method !== "GET" && route.method !== "DELETE";
          const text = JSON.stringify(value) ?? "null";
          await send(`${route.method} ${path}?${search} ${hasBody ? text.slice(0, 160) : ""}`, () =>
            client.request(`${path}?${search}`, {
              method: route.method,
              headers: hasBody ? { "content-type": "application/json" } : {},
              body: hasBody ? text : undefined,
            }),
          );
        }),
        { numRuns: LOOP_RUNS, seed: SEED },
      );
    }
    expect(failures).toEqual([]);
    expect((await fetch(`${t.baseUrl}/healthz`)).status).toBe(200);
  }, 120_000);
});
