/**
 * POST /api/v1/screen: a merchant's backend asks before a signup, trial, promo, referral,
 * checkout or request, with `Authorization: Bearer <secret API key>`. The route calls the
 * screening service itself, as the typed client's screening.screen procedure does: no tRPC
 * hop on the path measured in requests a second.
 */
import type { FastifyInstance } from "fastify";
import { ZScreenInput, ZScreenResult } from "../../../shared/schemas/screening.ts";
import type { Services } from "../../services.ts";
import { addRoutes, type Route, route } from "./route.ts";

const EXAMPLE = {
  type: "signup",
  user_id: "u_123",
  email: "jane.doe@example.com",
  ip: "203.0.113.7",
  user_agent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15",
  device_id: "d_9f2c",
  timezone: "America/New_York",
};

export function screeningRouteTable(services: Services): Route[] {
  return [
    route({
      method: "POST",
      url: "/v1/screen",
      tag: "screening",
      summary: "Screen an event before it happens: allow, review or block, with reasons",
      op: "screening.screen",
      auth: "apiKey",
      body: ZScreenInput,
      response: ZScreenResult,
      errors: [429],
      examples: { body: EXAMPLE },
      handler: ({ caller, body }) => services.screening.screen(caller.accountId, body),
    }),
  ];
}

export async function screeningRoutes(app: FastifyInstance, { services }: { services: Services }) {
  addRoutes(app, screeningRouteTable(services), services);
}
