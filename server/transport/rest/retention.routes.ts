/**
 * Data retention as REST, for scripts with `Authorization: Bearer <token>` from
 * POST /api/auth/login: one table row each, calling the retention service directly, past the
 * same gate as the console's procedures (retention.get reads; retention.put is an owner's).
 */
import type { FastifyInstance } from "fastify";
import { ZRetentionSettings, ZRetentionView } from "../../../shared/schemas/retention.ts";
import type { Services } from "../../services.ts";
import { addRoutes, type Route, route } from "./route.ts";

export function retentionRouteTable(services: Services): Route[] {
  const { retention } = services;
  return [
    route({
      method: "GET",
      url: "/retention",
      tag: "retention",
      summary:
        "How long each kind of personal data is kept: days, default, limits, and what the setting breaks among the rules' windows",
      op: "retention.get",
      auth: "session",
      response: ZRetentionView,
      handler: ({ caller }) => retention.get(caller.accountId),
    }),
    route({
      method: "PUT",
      url: "/retention",
      tag: "retention",
      summary:
        "Set any subset of the kinds' retention in days (null: back to the instance's default); owners only",
      op: "retention.put",
      auth: "session",
      body: ZRetentionSettings,
      response: ZRetentionView,
      errors: [403],
      examples: { body: { screenings: 30, identities: null } },
      handler: ({ caller, body }) => retention.put(caller.accountId, body),
    }),
  ];
}

export async function retentionRoutes(app: FastifyInstance, { services }: { services: Services }) {
  addRoutes(app, retentionRouteTable(services), services);
}
