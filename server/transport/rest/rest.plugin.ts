/**
 * The REST adapter under /api: each route parses its input, calls the same tRPC procedure
 * through createCaller (so the logic exists once), and returns JSON.
 */
import type { FastifyInstance } from "fastify";
import { ZCredentials } from "../../../shared/schemas/auth.ts";
import type { Services } from "../../services.ts";
import { callerFor } from "./caller.ts";
import { collectRoutes } from "./collect.routes.ts";
import { consoleRoutes } from "./console.routes.ts";
import { openapiPlugin } from "./openapi.plugin.ts";
import { reviewRoutes } from "./review.routes.ts";
import { screeningRoutes } from "./screening.routes.ts";

export async function restPlugin(app: FastifyInstance, { services }: { services: Services }) {
  await app.register(openapiPlugin);

  /** Exchanges credentials for a bearer token, for scripts and other backends. */
  app.post("/auth/login", async (request) => {
    const input = ZCredentials.parse(request.body);
    const { token, expiresAt, user } = await services.auth.login(input, request.ip);
    return { token, expiresAt: expiresAt.toISOString(), user };
  });

  app.post("/auth/logout", async (request) => callerFor(request, services).auth.logout());

  app.get("/me", async (request) => ({ user: await callerFor(request, services).auth.me() }));

  await app.register(consoleRoutes, { services });
  await app.register(screeningRoutes, { services });
  await app.register(reviewRoutes, { services });
  await app.register(collectRoutes, { services });
}
