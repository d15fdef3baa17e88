/**
 * The decision loop for a merchant's backend, with `Authorization: Bearer <secret API key>`:
 * POST /api/v1/labels, GET /api/v1/screenings/{id} and POST /api/v1/screenings/{id}/decision.
 * Each calls the same tRPC procedure as the typed client; the zod schemas inside validate.
 */
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { ZLabelInput, ZLabelView } from "../../../shared/schemas/labels.ts";
import { ZReviewDecisionInput, ZScreeningDetail } from "../../../shared/schemas/review.ts";
import type { Services } from "../../services.ts";
import { callerFor } from "./caller.ts";
import { ERROR_BODY, jsonSchema } from "./openapi.plugin.ts";

const security = [{ apiKey: [] }];
const ID_PARAM = {
  type: "object",
  properties: {
    id: { type: "string", description: "The screening's id (from POST /api/v1/screen)" },
  },
  required: ["id"],
};

export async function reviewRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.post(
    "/v1/labels",
    {
      schema: {
        tags: ["decisions"],
        summary:
          "Label a screening or a charge fraud or legitimate (a new label keeps the old one as history)",
        security,
        body: {
          ...jsonSchema(ZLabelInput, "input"),
          examples: [
            { subject_kind: "screening", subject_id: "…", label: "fraud", note: "chargeback" },
          ],
        },
        response: {
          200: jsonSchema(ZLabelView),
          400: ERROR_BODY,
          401: ERROR_BODY,
          404: ERROR_BODY,
        },
      },
    },
    (request) =>
      callerFor(request, services).labelsApi.create(request.body as z.input<typeof ZLabelInput>),
  );

  app.get(
    "/v1/screenings/:id",
    {
      schema: {
        tags: ["decisions"],
        summary: "One screening: its decision, reasons, review state and labels",
        security,
        params: ID_PARAM,
        response: { 200: jsonSchema(ZScreeningDetail), 401: ERROR_BODY, 404: ERROR_BODY },
      },
    },
    (request) =>
      callerFor(request, services).screeningsApi.get({ id: (request.params as { id: string }).id }),
  );

  app.post(
    "/v1/screenings/:id/decision",
    {
      schema: {
        tags: ["decisions"],
        summary: "Settle a screening answered `review`: approve or deny, with an optional note",
        security,
        params: ID_PARAM,
        body: {
          ...jsonSchema(ZReviewDecisionInput, "input"),
          examples: [{ decision: "approve", note: "customer verified by phone" }],
        },
        response: {
          200: jsonSchema(ZScreeningDetail),
          400: ERROR_BODY,
          401: ERROR_BODY,
          404: ERROR_BODY,
          409: ERROR_BODY,
        },
      },
    },
    (request) =>
      callerFor(request, services).screeningsApi.decide({
        ...(request.body as z.input<typeof ZReviewDecisionInput>),
        id: (request.params as { id: string }).id,
      }),
  );
}
