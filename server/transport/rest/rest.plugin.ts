/**
 * The REST adapter under /api: every route is a row of a table (route.ts): it parses its
 * input with the shared zod schema, makes one call (a service; the console's routes call the
 * same service as the console's procedure, past the same gate, transport/access.ts), and
 * returns JSON; errors are answered through transport/errors.ts. The tables: the console's
 * (console.routes.ts), scoring, the team, the audit log, two-factor sign-in, screening, the
 * decision loop (review.routes.ts) and the collector.
 */
import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.ts";
import { accountRoutes, accountRouteTable } from "./account.routes.ts";
import { auditRoutes, auditRouteTable } from "./audit.routes.ts";
import { collectRoutes, collectRouteTable } from "./collect.routes.ts";
import { consoleRoutes, consoleRouteTable } from "./console.routes.ts";
import { endUsersRoutes, endUsersRouteTable } from "./end-users.routes.ts";
import { openapiPlugin } from "./openapi.plugin.ts";
import { retentionRoutes, retentionRouteTable } from "./retention.routes.ts";
import { reviewRoutes, reviewRouteTable } from "./review.routes.ts";
import type { Route } from "./route.ts";
import { scoreModelRoutes, scoreModelRouteTable } from "./score-models.routes.ts";
import { scoreThresholdsRoutes, scoreThresholdsRouteTable } from "./score-thresholds.routes.ts";
import { screeningRoutes, screeningRouteTable } from "./screening.routes.ts";
import { teamRoutes, teamRouteTable } from "./team.routes.ts";
import { twoFactorRoutes, twoFactorRouteTable } from "./two-factor.routes.ts";

/**
 * Every REST table, each row with the operation it performs (the access sweep calls each
 * row as every role; openapi and the routes register the same rows).
 */
export function restRouteTables(services: Services): Record<string, Route[]> {
  return {
    console: consoleRouteTable(services),
    scoreModels: scoreModelRouteTable(services),
    scoreThresholds: scoreThresholdsRouteTable(services),
    team: teamRouteTable(services),
    retention: retentionRouteTable(services),
    audit: auditRouteTable(services),
    twoFactor: twoFactorRouteTable(services),
    account: accountRouteTable(services),
    screening: screeningRouteTable(services),
    review: reviewRouteTable(services),
    endUsers: endUsersRouteTable(services),
    collect: collectRouteTable(services),
  };
}

export async function restPlugin(app: FastifyInstance, { services }: { services: Services }) {
  await app.register(openapiPlugin);

  await app.register(consoleRoutes, { services });
  await app.register(scoreModelRoutes, { services });
  await app.register(scoreThresholdsRoutes, { services });
  await app.register(teamRoutes, { services });
  await app.register(retentionRoutes, { services });
  await app.register(auditRoutes, { services });
  await app.register(twoFactorRoutes, { services });
  await app.register(accountRoutes, { services });
  await app.register(screeningRoutes, { services });
  await app.register(reviewRoutes, { services });
  await app.register(endUsersRoutes, { services });
  await app.register(collectRoutes, { services });
}
