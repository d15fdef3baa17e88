/**
 * GET /metrics in Prometheus's text format, for a scraper holding METRICS_TOKEN (as a bearer
 * token). Without METRICS_TOKEN the route does not exist. Every answered request is timed
 * under its route pattern (never the raw URL, which would carry ids).
 */
import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Metrics } from "../../lib/metrics.ts";

type Options = { metrics: Metrics; token: string | undefined };

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const metricsPlugin = fp<Options>(async (app: FastifyInstance, { metrics, token }) => {
  app.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? "(no route)";
    metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
  if (!token) return;
  app.get("/metrics", async (request, reply) => {
    const header = request.headers.authorization ?? "";
    const given = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? "";
    if (!sameToken(given, token)) {
      return reply.code(401).send({
        error: { code: "UNAUTHORIZED", message: "Send METRICS_TOKEN as a bearer token." },
      });
    }
    reply.header("content-type", metrics.registry.contentType);
    return metrics.registry.metrics();
  });
});
