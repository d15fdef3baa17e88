/**
 * One REST route from one operation's row (operations/<area>.ts): the shared zod schemas
 * document it (OpenAPI) and validate it, and the row's handler makes its one call, as the
 * operation's tRPC procedure does. A ZodError from validation, like any AppError the call
 * throws, is answered by the app's error handler through transport/errors.ts (400 with the
 * field paths, 401, 404, ...), the same table the tRPC adapter uses. Fastify's own
 * JSON-schema validation and serialization are off for these routes: the JSON schemas only
 * document, the zod schemas are the one validator.
 *
 * Each request goes, in this order: the caller's check against the operation
 * (transport/access.ts: an anonymous call is a 401, a role without the permission a 403,
 * before its input is read; made once), the path and query, the row's `admit` (checks that
 * must come before the body), the body, the one call (which writes a change's audit event),
 * and its answer parsed with the response schema, as a tRPC procedure's output is (keys the
 * schema does not name are dropped; an answer that does not fit is our fault, a 500).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { AppError } from "../../lib/app-error.ts";
import type { Services } from "../../services.ts";
import { admit, record } from "../access.ts";
import { zodIssues } from "../errors.ts";
import type { AccessRule, Operation } from "../operation.ts";
import { ERROR_BODY, jsonSchema } from "./openapi.plugin.ts";

type Schema = z.ZodType | undefined;
/** A row with a REST route, named. */
export type RestRow = Operation & AccessRule & { rest: NonNullable<Operation["rest"]> };

/** The route's parts and their schemas: the row's own, or its input where the route reads it. */
export function partsOf(row: RestRow): { params: Schema; query: Schema; body: Schema } {
  const { rest } = row;
  if (rest.params || rest.query || rest.body) {
    return { params: rest.params, query: rest.query, body: rest.body };
  }
  const where = rest.path.includes(":") ? "params" : rest.method === "GET" ? "query" : "body";
  return { params: undefined, query: undefined, body: undefined, [where]: row.input };
}

/** The answer's schema: the route's own, or the operation's output; null for 204. */
function responseOf(row: RestRow): z.ZodType | null {
  const response = row.rest.response !== undefined ? row.rest.response : row.output;
  if (response === undefined) throw new Error(`${row.name}: a REST route needs an answer's schema`);
  return response;
}

const withExamples = (schema: object, example: unknown) =>
  example === undefined ? schema : { ...schema, examples: [example] };

const SECURITY = { session: [{ bearerAuth: [] }], apiKey: [{ apiKey: [] }] } as const;

function docs(row: RestRow): Record<string, unknown> {
  const { rest, need } = row;
  const parts = partsOf(row);
  const response = responseOf(row);
  const hasInput = Boolean(parts.body || parts.params || parts.query);
  const errors = [...(hasInput ? [400] : []), 401, ...(rest.errors ?? [])];
  const security = need === "public" ? null : need === "apiKey" ? "apiKey" : "session";
  return {
    tags: [rest.tag],
    summary: rest.summary,
    ...(security && { security: SECURITY[security] }),
    ...(parts.body && { body: withExamples(jsonSchema(parts.body, "input"), rest.examples?.body) }),
    ...(parts.params && { params: jsonSchema(parts.params, "input") }),
    ...(parts.query && { querystring: jsonSchema(parts.query, "input") }),
    response: {
      ...(response
        ? { 200: withExamples(jsonSchema(response), rest.examples?.response) }
        : { 204: { type: "null" } }),
      ...Object.fromEntries(errors.map((status) => [status, ERROR_BODY])),
    },
    ...rest.openapi,
  };
}

/** One part of the request parsed with its schema; undefined when the route has none. */
function parsed(schema: Schema, value: unknown): unknown {
  return schema ? schema.parse(value) : undefined;
}

/** The operation's input from the parsed parts: the route's mapping, the one part, or all merged. */
function inputOf(row: RestRow, parts: Record<"params" | "query" | "body", unknown>): unknown {
  if (row.rest.input) return row.rest.input(parts as never);
  const present = Object.entries(partsOf(row)).filter(([, schema]) => schema);
  if (present.length === 0) return undefined;
  if (present.length === 1) return parts[present[0]?.[0] as keyof typeof parts];
  return { ...(parts.params as object), ...(parts.query as object), ...(parts.body as object) };
}

/** The answer as its schema reads it; one that does not fit is a 500, never the caller's 400. */
function answerOf(schema: z.ZodType, answer: unknown): unknown {
  const result = schema.safeParse(answer);
  if (result.success) return result.data;
  const issues = zodIssues(result.error).map((issue) => `${issue.path}: ${issue.message}`);
  throw new AppError("INTERNAL", `The answer does not fit its schema: ${issues.join("; ")}`);
}

/** REST answers with a token, never a cookie: a handler's cookie calls do nothing here. */
const NO_COOKIE = { set() {}, clear() {} };

/** Registers every row's route on an (encapsulated) plugin. */
export function addRoutes(
  app: FastifyInstance,
  rows: readonly RestRow[],
  services: Services,
): void {
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const row of rows) {
    const { rest } = row;
    const schemas = partsOf(row);
    const response = responseOf(row);
    const call = rest.handler ?? row.handler;
    app.route({
      method: rest.method,
      url: rest.path,
      ...(rest.bodyLimit && { bodyLimit: rest.bodyLimit }),
      schema: docs(row),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const context = {
          services,
          caller: request.caller,
          session: request.session,
          ip: request.ip,
        };
        const caller = admit(row, context);
        const params = parsed(schemas.params, request.params);
        const query = parsed(schemas.query, request.query);
        const admitted = await rest.admit?.(
          { services, caller, params, query } as never,
          request,
          reply,
        );
        const body = parsed(schemas.body, request.body);
        const input = inputOf(row, { params, query, body });
        const audited = { ...(params as object), ...(body as object) };
        const handed = { ...context, caller, sessionCookie: NO_COOKIE, admitted };
        const output = await record(row, context, caller, audited, () =>
          (call as (handed: unknown, input: unknown) => Promise<unknown>)(handed, input),
        );
        if (!response) return reply.code(204).send();
        return answerOf(response, rest.answer ? rest.answer(output as never) : output);
      },
    });
  }
}
