/**
 * POST /api/v1/screen: a merchant's backend asks before a signup, trial, promo, referral,
 * checkout or request, with `Authorization: Bearer <secret API key>`. The same procedure as
 * the typed client's screening.screen.
 */
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { ZScreenInput, ZScreenResult } from "../../../shared/schemas/screening.ts";
import type { Services } from "../../services.ts";
import { callerFor } from "./caller.ts";
import { ERROR_BODY, jsonSchema } from "./openapi.plugin.ts";

const EXAMPLE = {
  type: "signup",
  user_id: "u_123",
  email: "jane.doe@example.com",
  ip: "203.0.113.7",
  user_agent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15",
  device_id: "d_9f2c",
  timezone: "America/New_York",
};

export async function screeningRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.post(
    "/v1/screen",
    {
      schema: {
        tags: ["screening"],
        summary: "Screen an event before it happens: allow, review or block, with reasons",
        security: [{ apiKey: [] }],
        body: { ...jsonSchema(ZScreenInput, "input"), examples: [EXAMPLE] },
        response: {
          200: jsonSchema(ZScreenResult),
          400: ERROR_BODY,
          401: ERROR_BODY,
          429: ERROR_BODY,
        },
      },
    },
    (request) =>
      callerFor(request, services).screening.screen(request.body as z.input<typeof ZScreenInput>),
  );
}
