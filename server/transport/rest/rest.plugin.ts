/**
 * The REST adapter under /api: a route for every operation whose row has one
 * (operations/<area>.ts; route.ts validates, documents and makes the row's one call past the
 * gate, transport/access.ts), and two routes of their own: the audit log's CSV download and
 * the collector's CORS preflight. Errors are answered through transport/errors.ts.
 */
import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.ts";
import { ROWS } from "../operations/index.ts";
import { auditExportRoute } from "./audit-export.ts";
import { collectPreflightRoute } from "./collect-preflight.ts";
import { openapiPlugin } from "./openapi.plugin.ts";
import { addRoutes, type RestRow } from "./route.ts";

/** Every row with a REST route, in the areas' order (the access sweep calls each one). */
export const REST_ROWS: readonly RestRow[] = ROWS.filter((row): row is RestRow =>
  Boolean(row.rest),
);

async function operationRoutes(app: FastifyInstance, { services }: { services: Services }) {
  addRoutes(app, REST_ROWS, services);
  auditExportRoute(app, services);
  collectPreflightRoute(app);
}

export async function restPlugin(app: FastifyInstance, { services }: { services: Services }) {
  await app.register(openapiPlugin);
  await app.register(operationRoutes, { services });
}
