/**
 * One REST route from one table row: the shared zod schemas document it (OpenAPI) and
 * validate it, and the handler gets typed input and makes one call. A ZodError from
 * validation, like any AppError the call throws, is answered by the app's error handler
 * through transport/errors.ts (400 with the field paths, 401, 404, ...), the same table the
 * tRPC adapter uses. Fastify's own JSON-schema validation and serialization are off for these
 * routes: the JSON schemas only document, the zod schemas are the one validator.
 *
 * Each request goes, in this order: the caller's check against the route's operation in
 * transport/access.ts (so an anonymous call is a 401, a role without the permission a 403,
 * before its input is read), the path and query, `admit` (checks that must come before the
 * body), the body, the one call through the same gate as the tRPC procedures (which writes a
 * change's audit event), and its answer parsed with the response schema, as a tRPC
 * procedure's output is (keys the schema does not name are dropped; an answer that does not
 * fit is our fault, a 500).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { AppError } from "../../lib/app-error.ts";
import type { Caller } from "../../lib/caller.ts";
import type { Services } from "../../services.ts";
import { admit, pass } from "../access.ts";
import { zodIssues } from "../errors.ts";
import { ERROR_BODY, jsonSchema } from "./openapi.plugin.ts";

type Schema = z.ZodType | undefined;
type Parsed<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * Who may call, for the docs and the handler's types: a console session or a secret API key
 * (the operation's need in transport/access.ts is what is checked, and must agree), a
 * publishable key (the collector's; its route checks it in `admit`, with the Origin), or
 * anyone (login).
 */
export type Auth = "session" | "apiKey" | "publishableKey" | "none";
/** The caller once the route's check has passed: always set for session and API-key routes. */
type CallerOf<A extends Auth> = A extends "session" | "apiKey" ? Caller : Caller | null;

type Before<P extends Schema, Q extends Schema, A extends Auth> = {
  params: Parsed<P>;
  query: Parsed<Q>;
  caller: CallerOf<A>;
};

export type Route<
  B extends Schema = Schema,
  P extends Schema = Schema,
  Q extends Schema = Schema,
  A extends Auth = Auth,
  Admitted = unknown,
> = {
  method: "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS";
  url: string;
  tag: string;
  summary: string;
  /** The operation in transport/access.ts this route performs: what it needs, what it audits. */
  op: string;
  auth: A;
  body?: B;
  params?: P;
  query?: Q;
  /** The largest body taken, in bytes (Fastify's bodyLimit: 413 past it); 1 MiB otherwise. */
  bodyLimit?: number;
  /**
   * Checks that must come after the path and query and before the body is read (the
   * collector's key, Origin and budgets); what it returns reaches the handler as `admitted`.
   */
  admit?: (
    input: Before<P, Q, A>,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<Admitted>;
  /** The answer's schema; null for 204 No Content. */
  response: z.ZodType | null;
  /** Error statuses besides 400 (with input) and 401, for the docs. */
  errors?: number[];
  /** One example each of the body and the answer, for the docs. */
  examples?: { body?: unknown; response?: unknown };
  /** Left out of the OpenAPI document (a CORS preflight). */
  hide?: boolean;
  /** OpenAPI fields that say more than the zod schema can (merged over the generated ones). */
  openapi?: Record<string, unknown>;
  /** The one call, with the input as its schemas parsed it. */
  handler: (
    input: Before<P, Q, A> & { body: Parsed<B>; admitted: Admitted },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<unknown>;
};

/** A route whose types are checked against its own schemas (a table holds many kinds). */
export function route<
  B extends Schema,
  P extends Schema,
  Q extends Schema,
  A extends Auth,
  Admitted = undefined,
>(spec: Route<B, P, Q, A, Admitted>): Route {
  return spec as unknown as Route;
}

const withExamples = (schema: object, example: unknown) =>
  example === undefined ? schema : { ...schema, examples: [example] };

function docs(spec: Route): Record<string, unknown> {
  if (spec.hide) return { hide: true };
  const hasInput = Boolean(spec.body || spec.params || spec.query);
  const errors = [...(hasInput ? [400] : []), 401, ...(spec.errors ?? [])];
  const security = { session: { bearerAuth: [] }, apiKey: { apiKey: [] } } as const;
  return {
    tags: [spec.tag],
    summary: spec.summary,
    ...((spec.auth === "session" || spec.auth === "apiKey") && {
      security: [security[spec.auth]],
    }),
    ...(spec.body && { body: withExamples(jsonSchema(spec.body, "input"), spec.examples?.body) }),
    ...(spec.params && { params: jsonSchema(spec.params, "input") }),
    ...(spec.query && { querystring: jsonSchema(spec.query, "input") }),
    response: {
      ...(spec.response
        ? { 200: withExamples(jsonSchema(spec.response), spec.examples?.response) }
        : { 204: { type: "null" } }),
      ...Object.fromEntries(errors.map((status) => [status, ERROR_BODY])),
    },
    ...spec.openapi,
  };
}

/** One part of the request parsed with its schema; undefined when the route has none. */
function parsed(schema: Schema, value: unknown): unknown {
  return schema ? schema.parse(value) : undefined;
}

/** The answer as its schema reads it; one that does not fit is a 500, never the caller's 400. */
function answerOf(schema: z.ZodType, answer: unknown): unknown {
  const result = schema.safeParse(answer);
  if (result.success) return result.data;
  const issues = zodIssues(result.error).map((issue) => `${issue.path}: ${issue.message}`);
  throw new AppError("INTERNAL", `The answer does not fit its schema: ${issues.join("; ")}`);
}

/** Registers every route of a table on an (encapsulated) plugin. */
export function addRoutes(
  app: FastifyInstance,
  routes: readonly Route[],
  services: Services,
): void {
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const spec of routes) {
    app.route({
      method: spec.method,
      url: spec.url,
      ...(spec.bodyLimit && { bodyLimit: spec.bodyLimit }),
      schema: docs(spec),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const call = {
          services,
          caller: request.caller,
          session: request.session,
          ip: request.ip,
        };
        const before = {
          caller: admit(spec.op, call),
          params: parsed(spec.params, request.params),
          query: parsed(spec.query, request.query),
        };
        const admitted = await spec.admit?.(before as never, request, reply);
        const input = { ...before, admitted, body: parsed(spec.body, request.body) };
        const audited = { ...(before.params as object), ...(input.body as object) };
        const answer = await pass(spec.op, call, audited, () =>
          spec.handler(input as never, request, reply),
        );
        return spec.response ? answerOf(spec.response, answer) : reply.code(204).send();
      },
    });
  }
}
