/**
 * The risk score's thresholds as REST, for scripts and the simulator with
 * `Authorization: Bearer <token>` from POST /api/auth/login (the console's own routes, beside
 * console.routes.ts): one table row each, calling the thresholds service directly.
 */
import type { FastifyInstance } from "fastify";
import {
  ZThresholdPreview,
  ZThresholdReset,
  ZThresholdsInput,
  ZThresholdsView,
} from "../../../shared/schemas/score-thresholds.ts";
import type { Services } from "../../services.ts";
import { addRoutes, type Route, route } from "./route.ts";

const EXAMPLE = {
  thresholds: { signup: { review: 60, block: 85 }, checkout: { review: 70, block: null } },
};

export function scoreThresholdsRouteTable(services: Services): Route[] {
  const thresholds = services.scoreThresholds;
  return [
    route({
      method: "GET",
      url: "/scoring/thresholds",
      tag: "scoring",
      summary:
        "The risk score's review and block thresholds per event type: in force, where they come from (own, a template, none), and the account's own",
      op: "scoreThresholds.get",
      auth: "session",
      response: ZThresholdsView,
      handler: ({ caller }) => thresholds.get(caller.accountId),
    }),
    route({
      method: "PUT",
      url: "/scoring/thresholds",
      tag: "scoring",
      summary:
        "Replace the account's own thresholds (0–100 or null, review not above block); a type left out follows its templates",
      op: "scoreThresholds.put",
      auth: "session",
      body: ZThresholdsInput,
      response: ZThresholdsView,
      examples: { body: EXAMPLE },
      handler: ({ caller, body }) => thresholds.save(caller.accountId, body),
    }),
    route({
      method: "POST",
      url: "/scoring/thresholds/reset",
      tag: "scoring",
      summary: "Drop one event type's own thresholds: its templates' defaults apply again",
      op: "scoreThresholds.reset",
      auth: "session",
      body: ZThresholdReset,
      response: ZThresholdsView,
      examples: { body: { type: "signup" } },
      handler: ({ caller, body }) => thresholds.reset(caller.accountId, body),
    }),
    route({
      method: "POST",
      url: "/scoring/thresholds/preview",
      tag: "scoring",
      summary:
        "What proposed own thresholds would have blocked and reviewed over the last 30 days of screenings, and of the labelled ones, against today's (nothing is saved)",
      op: "scoreThresholds.preview",
      auth: "session",
      body: ZThresholdsInput,
      response: ZThresholdPreview,
      examples: { body: EXAMPLE },
      handler: ({ caller, body }) => thresholds.preview(caller.accountId, body),
    }),
  ];
}

export async function scoreThresholdsRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  addRoutes(app, scoreThresholdsRouteTable(services), services);
}
