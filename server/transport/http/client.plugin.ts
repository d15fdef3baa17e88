/**
 * Serves the built React client. Unknown paths under /api, /trpc and /webhooks get a 404 JSON
 * body; any other GET gets index.html so the client's router can take it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

const API_PREFIXES = ["/api", "/trpc", "/webhooks", "/healthz"];

export async function clientPlugin(app: FastifyInstance, { clientDir }: { clientDir: string }) {
  const built = existsSync(join(clientDir, "index.html"));
  if (built) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      setHeaders(reply, path) {
        if (path.includes(`${join(clientDir, "assets")}`)) {
          reply.header("cache-control", "public, max-age=31536000, immutable");
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    const isApi = API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
    if (isApi || (request.method !== "GET" && request.method !== "HEAD")) {
      return reply.code(404).send({
        error: { code: "NOT_FOUND", message: `No route for ${request.method} ${path}` },
      });
    }
    if (!built) {
      return reply
        .code(503)
        .type("text/plain")
        .send("The client is not built yet: run `npm run build` (npm start does it for you).");
    }
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  });
}
