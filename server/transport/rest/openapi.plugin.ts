/**
 * The REST API's OpenAPI document (/api/openapi.json) and docs page (/api/docs). Registered
 * without encapsulation before the routes, so @fastify/swagger sees every /api route.
 */
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { z } from "zod";

export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Warden API",
        version: "1",
        description:
          "Screening (POST /api/v1/screen) and the decision loop (labels; reading and settling " +
          "a screening or a charge the rules sent to review) with a secret API key; the browser collector " +
          "(POST /api/v1/collect, called by /sdk/warden.js with a publishable key); and console configuration " +
          "for scripts and other backends with `Authorization: Bearer <token>` from " +
          "POST /api/auth/login.",
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer" },
          apiKey: {
            type: "http",
            scheme: "bearer",
            description: "A secret API key (wdn_sk_…) from Settings → API keys",
          },
        },
      },
    },
  });
  // The docs page shares the console's origin: it gets the strictest policy that still runs
  // Swagger UI, a sandbox (an opaque origin: no cookies, no reading our responses), and no
  // "Try it out", so nothing on it can act with the visitor's session.
  // Public files only: the sandboxed page (an opaque origin) may load them; no cookie is sent.
  app.addHook("onRequest", async (request, reply) => {
    if (!request.url.startsWith("/api/docs")) return;
    reply.header("cross-origin-resource-policy", "cross-origin");
    reply.header("access-control-allow-origin", "*");
  });
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    indexPrefix: "/api",
    uiConfig: { supportedSubmitMethods: [], validatorUrl: null },
    staticCSP: DOCS_CSP,
  });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
});

/** Swagger UI sets one inline style; harmless here, since the sandbox holds no session. */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; " +
  "frame-ancestors 'none'; object-src 'none'; sandbox allow-scripts";

/** A shared zod schema as plain JSON Schema for the OpenAPI document. */
export function jsonSchema(schema: z.ZodType, io: "input" | "output" = "output") {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest;
}

/** The error body every failure shares (server/transport/errors.ts). */
export const ERROR_BODY = {
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: {
        code: { type: "string" },
        message: { type: "string" },
        issues: {
          type: "array",
          items: {
            type: "object",
            properties: { path: { type: "string" }, message: { type: "string" } },
          },
        },
      },
    },
  },
} as const;
