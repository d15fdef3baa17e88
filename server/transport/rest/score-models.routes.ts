/**
 * A merchant's own risk-score weights for scripts (and the simulator), with
 * `Authorization: Bearer <token>` from POST /api/auth/login: list the versions, propose one
 * from the account's labels, adopt one, roll back. Each route calls the models service, as the
 * console's procedures do.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  ZAdoptConfirmation,
  ZModelRef,
  ZScoreModels,
  ZScoreModelView,
} from "../../../shared/schemas/score-models.ts";
import type { Services } from "../../services.ts";
import { addRoutes, type Route, route } from "./route.ts";

/** The signed-in member who asks (route.ts lets only a session through to these routes). */
const memberOf = (request: FastifyRequest) => request.session?.user.email ?? "";

export function scoreModelRouteTable(services: Services): Route[] {
  const models = services.scoreModels;
  return [
    route({
      method: "GET",
      url: "/scoring/models",
      tag: "scoring",
      summary: "The weights in force and every version fitted from your labels, newest first",
      op: "scoreModels.list",
      auth: "session",
      response: ZScoreModels,
      handler: ({ caller }) => models.list(caller.accountId),
    }),
    route({
      method: "POST",
      url: "/scoring/proposals",
      tag: "scoring",
      summary:
        "Fit weights on your labelled screenings (at least 50 fraud and 50 legitimate) and store them as a proposal, with a backtest against the weights in force; nothing is adopted",
      op: "scoreModels.propose",
      auth: "session",
      response: ZScoreModelView,
      errors: [400, 409, 429],
      handler: ({ caller }, request) => models.propose(caller.accountId, memberOf(request)),
    }),
    route({
      method: "POST",
      url: "/scoring/models/:id/adopt",
      tag: "scoring",
      summary:
        "Put a proposed (or retired) version in force; the version in force before is retired. A version with warnings needs each one's code in `confirm` (a 400 names those missing)",
      op: "scoreModels.adopt",
      auth: "session",
      params: ZModelRef,
      // No body at all: nothing confirmed (enough for a version without warnings).
      body: ZAdoptConfirmation.nullish(),
      response: ZScoreModels,
      errors: [404, 409],
      examples: { body: { confirm: ["one_source"] } },
      handler: ({ caller, params, body }, request) =>
        models.adopt(caller.accountId, { ...params, ...body }, memberOf(request)),
    }),
    route({
      method: "POST",
      url: "/scoring/rollback",
      tag: "scoring",
      summary:
        "Retire the version in force and put back the one adopted before it (or the shipped defaults)",
      op: "scoreModels.rollback",
      auth: "session",
      response: ZScoreModels,
      errors: [409],
      handler: ({ caller }) => models.rollback(caller.accountId),
    }),
  ];
}

export async function scoreModelRoutes(app: FastifyInstance, { services }: { services: Services }) {
  addRoutes(app, scoreModelRouteTable(services), services);
}
