/**
 * The REST adapter on a bare Fastify app answering errors as the app does (errors.ts), with
 * rows of its own: who is checked before the input is read (and only once), admit before the
 * body, 400 with the field, the answer read with its schema, a misfit answer as a 500, never
 * the caller's 400, and a route's parts mapped to the operation's input.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../../lib/app-error.ts";
import type { Caller } from "../../lib/caller.ts";
import type { Services } from "../../services.ts";
import { toPublicError } from "../errors.ts";
import { type Need, op } from "../operation.ts";
import { addRoutes, type RestRow } from "./route.ts";

const CALLERS: Record<string, Caller> = {
  secret: { accountId: "acct_s", via: "apiKey", key: { id: "k1", kind: "secret" } },
  publishable: { accountId: "acct_p", via: "apiKey", key: { id: "k2", kind: "publishable" } },
  session: { accountId: "acct_c", userId: "u1", role: "viewer", via: "session" },
};

const ZBody = z.strictObject({ name: z.string().min(1) });
const ZAnswer = z.object({ id: z.string(), name: z.string() });

/** How often the gate read each row's need: once a request, or the check ran twice. */
const reads: Record<string, number> = {};
function counted(name: string, row: object): RestRow {
  const need = (row as { need: Need }).need;
  const named = { ...row, name } as RestRow;
  Object.defineProperty(named, "need", {
    get: () => {
      reads[name] = (reads[name] ?? 0) + 1;
      return need;
    },
  });
  return named;
}

const rows = [
  counted(
    "screening.screen",
    op({
      need: "apiKey",
      kind: "mutation",
      input: ZBody,
      output: ZAnswer,
      handler: async ({ caller }, input) => ({ id: caller.accountId, name: input.name, extra: 1 }),
      rest: { method: "POST", path: "/screen", tag: "t", summary: "an API-key route" },
    }),
  ),
  counted(
    "dashboard.summary",
    op({
      need: "read",
      kind: "query",
      input: z.object({ limit: z.coerce.number().int().max(10) }),
      handler: async () => undefined,
      rest: {
        method: "GET",
        path: "/console",
        tag: "t",
        summary: "a session route",
        response: null,
      },
    }),
  ),
  counted(
    "collect.token",
    op({
      need: "public",
      kind: "mutation",
      input: ZBody,
      output: ZAnswer,
      rest: {
        method: "POST",
        path: "/admitted",
        tag: "t",
        summary: "a route with checks before its body",
        query: z.object({ key: z.string().optional() }),
        admit: async ({ query }) => {
          if (query.key !== "open") throw new AppError("FORBIDDEN", "key: not allowed");
          return { door: query.key };
        },
        body: ZBody,
        input: ({ body }) => body,
      },
      handler: async ({ admitted }, input) => ({ id: admitted.door, name: input.name }),
    }),
  ),
  counted(
    "auth.me",
    op({
      need: "public",
      kind: "query",
      output: ZAnswer,
      handler: async () => ({ id: 42 }) as never,
      rest: { method: "GET", path: "/misfit", tag: "t", summary: "an answer that does not fit" },
    }),
  ),
  counted(
    "team.changeRole",
    op({
      need: "public",
      kind: "mutation",
      input: z.object({ user_id: z.string(), role: z.string() }),
      output: z.object({ user_id: z.string(), role: z.string() }),
      handler: async (_, input) => input,
      rest: {
        method: "PUT",
        path: "/members/:user_id",
        tag: "t",
        summary: "a path's id and a body, one input",
        params: z.object({ user_id: z.string() }),
        body: z.strictObject({ role: z.string() }),
      },
    }),
  ),
];

describe("REST adapter", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    app.decorateRequest("caller", null);
    app.decorateRequest("session", null);
    app.addHook("onRequest", async (request) => {
      const caller = CALLERS[String(request.headers["x-caller"])];
      request.caller = caller ?? null;
      if (caller?.via === "session") {
        request.session = { pendingTwoFactor: false, mustEnrolTwoFactor: false } as never;
      }
    });
    app.setErrorHandler(async (error, _request, reply) => {
      const pub = toPublicError(error);
      return reply.code(pub.status).send(pub.body);
    });
    await app.register(async (scope) => addRoutes(scope, rows, {} as Services));
  });
  afterAll(() => app.close());

  it.each([
    {
      name: "an API-key route without a key is a 401, before its bad body is read",
      url: "/screen",
      body: { nope: true },
      status: 401,
      code: "UNAUTHORIZED",
    },
    {
      name: "a publishable key may not call an API-key route",
      url: "/screen",
      caller: "publishable",
      body: { name: "a" },
      status: 403,
      code: "FORBIDDEN",
    },
    {
      name: "a console session may not call an API-key route",
      url: "/screen",
      caller: "session",
      body: { name: "a" },
      status: 401,
      code: "UNAUTHORIZED",
    },
    {
      name: "a bad body is a 400 naming the field",
      url: "/screen",
      caller: "secret",
      body: { name: "" },
      status: 400,
      code: "BAD_REQUEST",
      issue: "name",
    },
    {
      name: "an unknown key in a strict body is a 400 at the root",
      url: "/screen",
      caller: "secret",
      body: { name: "a", extra: 1 },
      status: 400,
      code: "BAD_REQUEST",
      issue: "(root)",
    },
    {
      name: "a session route without a session is a 401, before its bad query is read",
      method: "GET",
      url: "/console?limit=99",
      status: 401,
      code: "UNAUTHORIZED",
    },
    {
      name: "a bad query is a 400 naming the field",
      method: "GET",
      url: "/console?limit=99",
      caller: "session",
      status: 400,
      code: "BAD_REQUEST",
      issue: "limit",
    },
    {
      name: "admit refuses before the body is read",
      url: "/admitted?key=shut",
      body: { nope: true },
      status: 403,
      code: "FORBIDDEN",
    },
    {
      name: "an admitted request's body is still checked",
      url: "/admitted?key=open",
      body: { name: 7 },
      status: 400,
      code: "BAD_REQUEST",
      issue: "name",
    },
    {
      name: "an answer that does not fit its schema is our 500, not the caller's 400",
      method: "GET",
      url: "/misfit",
      status: 500,
      code: "INTERNAL",
    },
  ])("$name", async ({ method = "POST", url, caller, body, status, code, issue }) => {
    const response = await app.inject({
      method: method as "GET" | "POST",
      url,
      headers: caller ? { "x-caller": caller } : {},
      ...(body && { payload: body }),
    });
    expect(response.statusCode).toBe(status);
    const { error } = response.json();
    expect(error.code).toBe(code);
    if (issue) expect(error.issues[0].path).toBe(issue);
  });

  it("hands the handler the caller and the parsed body, and answers what the schema names", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/screen",
      headers: { "x-caller": "secret" },
      payload: { name: "jane" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: "acct_s", name: "jane" });
  });

  it("hands the handler what admit returned", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/admitted?key=open",
      payload: { name: "jane" },
    });
    expect(response.json()).toEqual({ id: "open", name: "jane" });
  });

  it("answers a route without a response schema with 204 and no body", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/console?limit=3",
      headers: { "x-caller": "session" },
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe("");
  });

  it("merges the path's parameters and the body into the operation's input", async () => {
    const response = await app.inject({
      method: "PUT",
      url: "/members/u7",
      payload: { role: "viewer" },
    });
    expect(response.json()).toEqual({ user_id: "u7", role: "viewer" });
  });

  it("checks the caller once a request, whatever the route", async () => {
    const calls = [
      { method: "POST", url: "/screen", headers: { "x-caller": "secret" }, payload: { name: "a" } },
      { method: "GET", url: "/console?limit=3", headers: { "x-caller": "session" } },
      { method: "POST", url: "/admitted?key=open", payload: { name: "a" } },
      { method: "PUT", url: "/members/u7", payload: { role: "viewer" } },
    ] as const;
    for (const call of calls) {
      for (const key of Object.keys(reads)) delete reads[key];
      const response = await app.inject(call);
      expect(response.statusCode, call.url).toBeLessThan(300);
      expect(Object.values(reads), call.url).toEqual([1]);
    }
  });
});
