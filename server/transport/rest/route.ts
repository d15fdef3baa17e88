/**
 * One REST route from one table row: the shared zod schemas document it (OpenAPI) and
 * validate it, and the handler gets typed input and makes one call. A ZodError from
 * validation, like any AppError the call throws, is answered by the app's error handler
 * through transport/errors.ts (400 with the field paths, 401, 404, ...), the same table the
 * tRPC adapter uses. Fastify's own JSON-schema validation and serialization are off for these
 * routes: the JSON schemas only document, the zod schemas are the one validator.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { AppError } from "../../lib/app-error.ts";
import { ERROR_BODY, jsonSchema } from "./openapi.plugin.ts";

type Schema = z.ZodType | undefined;
type Parsed<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export type Route<
  B extends Schema = Schema,
  P extends Schema = Schema,
  Q extends Schema = Schema,
> = {
  method: "GET" | "PUT" | "POST" | "DELETE";
  url: string;
  tag: string;
  summary: string;
  /**
   * Who may call: a console session (checked here, so an anonymous call is a 401 before its
   * input is read; the procedure checks again), a secret API key (checked by the procedure),
   * or anyone (login).
   */
  auth: "session" | "apiKey" | "none";
  body?: B;
  params?: P;
  query?: Q;
  /** The answer's schema; null for 204 No Content. */
  response: z.ZodType | null;
  /** Error statuses besides 400 (with input) and 401, for the docs. */
  errors?: number[];
  /** OpenAPI fields that say more than the zod schema can (merged over the generated ones). */
  openapi?: Record<string, unknown>;
  /**
   * The one call, with the input as its schema parsed it. (A tRPC procedure behind it parses
   * it again with the same schema: these schemas' transforms are idempotent.)
   */
  handler: (
    input: { body: Parsed<B>; params: Parsed<P>; query: Parsed<Q> },
    request: FastifyRequest,
  ) => Promise<unknown>;
};

/** A route whose types are checked against its own schemas (a table holds many kinds). */
export function route<B extends Schema, P extends Schema, Q extends Schema>(
  spec: Route<B, P, Q>,
): Route {
  return spec as unknown as Route;
}

function docs(spec: Route): Record<string, unknown> {
  const hasInput = Boolean(spec.body || spec.params || spec.query);
  const errors = [...(hasInput ? [400] : []), 401, ...(spec.errors ?? [])];
  return {
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.auth !== "none" && {
      security: [spec.auth === "session" ? { bearerAuth: [] } : { apiKey: [] }],
    }),
    ...(spec.body && { body: jsonSchema(spec.body, "input") }),
    ...(spec.params && { params: jsonSchema(spec.params, "input") }),
    ...(spec.query && { querystring: jsonSchema(spec.query, "input") }),
    response: {
      ...(spec.response ? { 200: jsonSchema(spec.response) } : { 204: { type: "null" } }),
      ...Object.fromEntries(errors.map((status) => [status, ERROR_BODY])),
    },
    ...spec.openapi,
  };
}

/** One part of the request parsed with its schema; undefined when the route has none. */
function parsed(schema: Schema, value: unknown): unknown {
  return schema ? schema.parse(value) : undefined;
}

/** Registers every route of a table on an (encapsulated) plugin. */
export function addRoutes(app: FastifyInstance, routes: readonly Route[]): void {
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const spec of routes) {
    app.route({
      method: spec.method,
      url: spec.url,
      schema: docs(spec),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        if (spec.auth === "session" && (request.caller?.via !== "session" || !request.session)) {
          throw new AppError("UNAUTHORIZED", "Please log in.");
        }
        const input = {
          body: parsed(spec.body, request.body),
          params: parsed(spec.params, request.params),
          query: parsed(spec.query, request.query),
        };
        const answer = await spec.handler(input as never, request);
        return spec.response ? answer : reply.code(204).send();
      },
    });
  }
}
