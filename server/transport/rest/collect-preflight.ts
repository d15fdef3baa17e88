/**
 * OPTIONS /api/v1/collect: the CORS preflight a collect sent as application/json causes, for
 * any origin; it spends nothing and calls nothing (warden.js sends text/plain, a simple
 * request that needs none). Not in the OpenAPI document.
 */
import type { FastifyInstance } from "fastify";
import { allowCors } from "../operations/collect.ts";

export function collectPreflightRoute(app: FastifyInstance): void {
  app.route({
    method: "OPTIONS",
    url: "/v1/collect",
    schema: { hide: true },
    handler: async (request, reply) => {
      allowCors(request, reply);
      reply.header("access-control-allow-methods", "POST");
      reply.header("access-control-allow-headers", "content-type");
      reply.header("access-control-max-age", "600");
      return reply.code(204).send();
    },
  });
}
