/**
 * Serves the built React client. / is the prerendered landing page (landing.html, its own lean
 * bundle), or a redirect to the console for a signed-in visitor. Unknown paths under /api,
 * /trpc and /webhooks get a 404 JSON body; any other GET gets index.html so the client's router
 * can take it. /sdk/warden.js and /sdk/warden.mjs (the browser collector, built beside the
 * client) are loaded by merchants' pages on other origins: they are served to any origin.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

const API_PREFIXES = ["/api", "/trpc", "/webhooks", "/healthz"];
const SIGNED_IN_HOME = "/homepage/dashboard";

export async function clientPlugin(app: FastifyInstance, { clientDir }: { clientDir: string }) {
  const built = existsSync(join(clientDir, "index.html"));
  const landing = existsSync(join(clientDir, "landing.html"));
  if (built) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      setHeaders(reply, path) {
        if (path.includes(`${join(clientDir, "assets")}`)) {
          reply.header("cache-control", "public, max-age=31536000, immutable");
        } else if (path.startsWith(join(clientDir, "sdk"))) {
          // Unversioned URLs: short caching, so a new Warden reaches pages within minutes.
          reply.header("cache-control", "public, max-age=300");
          reply.header("cross-origin-resource-policy", "cross-origin");
          reply.header("access-control-allow-origin", "*");
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
    if (path === "/" && landing) {
      // The answer depends on the session cookie: never share it between visitors.
      reply.header("vary", "cookie");
      if (request.session) {
        return reply.header("cache-control", "private, no-store").redirect(SIGNED_IN_HOME);
      }
      return reply.header("cache-control", "no-cache").sendFile("landing.html");
    }
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  });
}
