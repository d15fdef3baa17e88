/**
 * The decision loop for a merchant's backend, with `Authorization: Bearer <secret API key>`:
 * POST /api/v1/labels, GET /api/v1/screenings/{id}, POST /api/v1/screenings/{id}/decision,
 * and the same two for a charge the rules sent to review (/api/v1/charges/{id}).
 * One table row each, calling the same services as the typed client's procedures.
 */
import type { FastifyInstance } from "fastify";
import { ZLabelInput, ZLabelView } from "../../../shared/schemas/labels.ts";
import {
  ZChargeRef,
  ZChargeReviewDetail,
  ZReviewDecisionInput,
  ZScreeningDetail,
  ZScreeningRef,
} from "../../../shared/schemas/review.ts";
import type { Services } from "../../services.ts";
import { apiKeyLabeller } from "../who.ts";
import { addRoutes, type Route, route } from "./route.ts";

export function reviewRouteTable(services: Services): Route[] {
  return [
    route({
      method: "POST",
      url: "/v1/labels",
      tag: "decisions",
      summary:
        "Label a screening or a charge fraud or legitimate (a new label keeps the old one as history)",
      op: "labelsApi.create",
      auth: "apiKey",
      body: ZLabelInput,
      response: ZLabelView,
      errors: [404],
      examples: {
        body: { subject_kind: "screening", subject_id: "…", label: "fraud", note: "chargeback" },
      },
      handler: ({ caller, body }) =>
        services.labels.add(caller.accountId, body, apiKeyLabeller(caller)),
    }),
    route({
      method: "GET",
      url: "/v1/screenings/:id",
      tag: "decisions",
      summary:
        "One screening: its decision, reasons, review state, labels and linked accounts (other accounts sharing its device, email, card, referrer or IP in the 30 days before it)",
      op: "screeningsApi.get",
      auth: "apiKey",
      params: ZScreeningRef,
      response: ZScreeningDetail,
      errors: [404],
      handler: ({ caller, params }) => services.review.detail(caller.accountId, params.id),
    }),
    route({
      method: "POST",
      url: "/v1/screenings/:id/decision",
      tag: "decisions",
      summary: "Settle a screening answered `review`: approve or deny, with an optional note",
      op: "screeningsApi.decide",
      auth: "apiKey",
      params: ZScreeningRef,
      body: ZReviewDecisionInput,
      response: ZScreeningDetail,
      errors: [404, 409],
      examples: { body: { decision: "approve", note: "customer verified by phone" } },
      handler: ({ caller, params, body }) =>
        services.review.settle(caller.accountId, params.id, body, apiKeyLabeller(caller).who),
    }),
    route({
      method: "GET",
      url: "/v1/charges/:id",
      tag: "decisions",
      summary: "One charge's review: its state, the rules' reasons and its labels",
      op: "chargesApi.get",
      auth: "apiKey",
      params: ZChargeRef,
      response: ZChargeReviewDetail,
      errors: [404],
      handler: ({ caller, params }) => services.review.chargeDetail(caller.accountId, params.id),
    }),
    route({
      method: "POST",
      url: "/v1/charges/:id/decision",
      tag: "decisions",
      summary: "Settle a charge the rules sent to review: approve or deny, with an optional note",
      op: "chargesApi.decide",
      auth: "apiKey",
      params: ZChargeRef,
      body: ZReviewDecisionInput,
      response: ZChargeReviewDetail,
      errors: [404, 409],
      examples: { body: { decision: "deny", note: "card reported stolen" } },
      handler: ({ caller, params, body }) =>
        services.review.settleCharge(caller.accountId, params.id, body, apiKeyLabeller(caller).who),
    }),
  ];
}

export async function reviewRoutes(app: FastifyInstance, { services }: { services: Services }) {
  addRoutes(app, reviewRouteTable(services), services);
}
