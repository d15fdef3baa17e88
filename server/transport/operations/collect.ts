/**
 * POST /api/v1/collect?key=wdn_pk_…: the browser collector (warden.js) sends what it saw and
 * gets a single-use token for the merchant's backend. Called cross-origin from the merchant's
 * pages, so every answer reflects the page's Origin in CORS (never with credentials): a token
 * is only ever answered to an allowed origin, and a refusal's message is not secret, so a page
 * on an origin not yet allowed can read why (warden.js logs it). Its CORS preflight is
 * rest/collect-preflight.ts's (it calls nothing, so it is no operation).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  COLLECT_BODY_LIMIT,
  ZCollectInput,
  ZCollectResult,
} from "../../../shared/schemas/collect.ts";
import { AppError } from "../../lib/app-error.ts";
import { originOf } from "../../modules/collector/collector.service.ts";
import { op } from "../operation.ts";

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

/** The publishable key; a missing or repeated one is the collector's 401, not a 400. */
export const ZCollectQuery = z.object({ key: z.string().optional().catch(undefined) });

/** A text/plain body (what warden.js sends, to skip a CORS preflight) holds JSON. */
const ZCollectBody = z.preprocess((body) => {
  if (typeof body !== "string") return body;
  try {
    return JSON.parse(body);
  } catch {
    throw new AppError("BAD_REQUEST", "body: must be a JSON object", {
      issues: [{ path: "(root)", message: "must be a JSON object" }],
    });
  }
}, ZCollectInput);

/** Lets the page that sent this request read the answer, whatever it is (see above). */
export function allowCors(request: FastifyRequest, reply: FastifyReply): void {
  reply.header("vary", "origin");
  const origin = originOf(request.headers.origin);
  if (!origin) return;
  reply.header("access-control-allow-origin", origin);
  reply.header("cross-origin-resource-policy", "cross-origin");
}

export const collect = {
  token: op({
    need: "public",
    kind: "mutation",
    trpc: false,
    input: ZCollectBody,
    output: ZCollectResult,
    rest: {
      method: "POST",
      path: "/v1/collect",
      tag: "screening",
      summary: "Browser collector (warden.js): turn what the page saw into a signals token",
      query: ZCollectQuery,
      // The key, the Origin and both budgets before the body is read (collector.service.ts).
      admit: async ({ services, query }, request, reply) => {
        allowCors(request, reply);
        const access = await services.collector.authorize(query.key, request.headers.origin);
        return services.collector.admit(access, request.ip, {
          headers: request.headers,
          protocol: request.protocol,
        });
      },
      body: ZCollectBody,
      input: ({ body }) => body,
      bodyLimit: COLLECT_BODY_LIMIT,
      errors: [403, 413, 429],
      examples: {
        body: EXAMPLE,
        response: { token: "wdn_sig_…", expires_at: "2026-11-22T11:10:00.000Z" },
      },
      openapi: {
        description:
          "Called by /sdk/warden.js from the merchant's page with a publishable key in `key`. " +
          "The Origin must be one of the account's allowed origins (Settings → API keys); the " +
          "answer's `token` goes to your backend, which passes it as `signals` to POST " +
          "/api/v1/screen within 10 minutes, once. From any other origin the answer is a 403 " +
          "the page can read (CORS), naming the origin; warden.js logs it and resolves to a " +
          'refusal token, which the screening answers with `signals: "refused"`. The body may ' +
          "be sent as text/plain (no CORS preflight) or application/json. A secret key is " +
          "refused with 403.",
        querystring: {
          type: "object",
          properties: { key: { type: "string", description: "A publishable key, wdn_pk_…" } },
          required: ["key"],
        },
      },
    },
    handler: ({ services, admitted }, input) => services.collector.collect(admitted, input),
  }),
};
