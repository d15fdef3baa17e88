/**
 * POST /api/v1/collect?key=wdn_pk_…: the browser collector (warden.js) sends what it saw and
 * gets a single-use token for the merchant's backend. Called cross-origin from the merchant's
 * pages, so CORS here answers only an Origin among the account's allowed origins (reflected,
 * never with credentials); OPTIONS answers the preflight a JSON body causes. warden.js sends
 * text/plain, a simple request that needs no preflight.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  COLLECT_BODY_LIMIT,
  ZCollectInput,
  ZCollectResult,
} from "../../../shared/schemas/collect.ts";
import type { Services } from "../../services.ts";
import { ERROR_BODY, jsonSchema } from "./openapi.plugin.ts";

const EXAMPLE = {
  device_id: "wd1_3f9a0c2e71b84d5e6a7f8091a2b3",
  timezone: "America/New_York",
  url: "https://shop.example.com/signup",
  referrer: "https://www.google.com/",
  webdriver: false,
  behavior: {
    time_to_submit_ms: 8400,
    pointer_events: 57,
    key_events: 31,
    key_interval_sd_ms: 48.2,
    paste_count: 0,
  },
};

type Query = { key?: string };

function keyOf(request: FastifyRequest): string | undefined {
  const key = (request.query as Query).key;
  return typeof key === "string" ? key : undefined;
}

function allowCors(reply: FastifyReply, origin: string): void {
  reply.header("access-control-allow-origin", origin);
  reply.header("cross-origin-resource-policy", "cross-origin");
}

export async function collectRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  const querystring = {
    type: "object",
    properties: { key: { type: "string", description: "A publishable key, wdn_pk_…" } },
    required: ["key"],
  };

  app.options("/v1/collect", { schema: { hide: true } }, async (request, reply) => {
    reply.header("vary", "origin");
    const origin = await services.collector
      .authorize(keyOf(request), request.headers.origin)
      .then((access) => access.origin)
      .catch(() => null);
    if (origin) {
      allowCors(reply, origin);
      reply.header("access-control-allow-methods", "POST");
      reply.header("access-control-allow-headers", "content-type");
      reply.header("access-control-max-age", "600");
    }
    return reply.code(204).send();
  });

  app.post(
    "/v1/collect",
    {
      bodyLimit: COLLECT_BODY_LIMIT,
      schema: {
        tags: ["screening"],
        summary: "Browser collector (warden.js): turn what the page saw into a signals token",
        description:
          "Called by /sdk/warden.js from the merchant's page with a publishable key in `key`. " +
          "The Origin must be one of the account's allowed origins (Rules → Referrer and origin " +
          "mismatch); the answer's `token` goes to your backend, which passes it as `signals` " +
          "to POST /api/v1/screen within 10 minutes, once. The body may be sent as text/plain " +
          "(no CORS preflight) or application/json. A secret key is refused with 403.",
        querystring,
        body: { ...jsonSchema(ZCollectInput, "input"), examples: [EXAMPLE] },
        response: {
          200: {
            ...jsonSchema(ZCollectResult),
            examples: [{ token: "wdn_sig_…", expires_at: "2026-11-22T11:10:00.000Z" }],
          },
          400: ERROR_BODY,
          401: ERROR_BODY,
          403: ERROR_BODY,
          413: ERROR_BODY,
          429: ERROR_BODY,
        },
      },
    },
    async (request, reply) => {
      reply.header("vary", "origin");
      const access = await services.collector.authorize(keyOf(request), request.headers.origin);
      // The page may read the answer (and its errors) only from an allowed origin.
      if (access.origin) allowCors(reply, access.origin);
      return services.collector.collect(access, request.ip, request.body);
    },
  );
}
