/**
 * The REST adapter under /api: every route is a row of a table (route.ts): it parses its
 * input with the shared zod schema, makes one call (a service; the console's routes call the
 * same tRPC procedure through createCaller, so the logic exists once), and returns JSON;
 * errors are answered through transport/errors.ts. The tables: the console's
 * (console.routes.ts), screening, the decision loop (review.routes.ts) and the collector.
 */
import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.ts";
import { collectRoutes } from "./collect.routes.ts";
import { consoleRoutes } from "./console.routes.ts";
import { openapiPlugin } from "./openapi.plugin.ts";
import { reviewRoutes } from "./review.routes.ts";
import { scoreModelRoutes } from "./score-models.routes.ts";
import { scoreThresholdsRoutes } from "./score-thresholds.routes.ts";
import { screeningRoutes } from "./screening.routes.ts";

export async function restPlugin(app: FastifyInstance, { services }: { services: Services }) {
  await app.register(openapiPlugin);

  await app.register(consoleRoutes, { services });
  await app.register(scoreModelRoutes, { services });
  await app.register(scoreThresholdsRoutes, { services });
  await app.register(screeningRoutes, { services });
  await app.register(reviewRoutes, { services });
  await app.register(collectRoutes, { services });
}
