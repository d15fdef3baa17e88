/**
 * An end user's data rights for a merchant's backend, with `Authorization: Bearer <secret API
 * key>` (docs/privacy.md, decision 029): GET /api/v1/end-users/export and POST
 * /api/v1/end-users/erase, by email, user id, device id or IP. The same service as the
 * console's endUsers procedures; the audit event keeps the selector kinds and counts only.
 */
import type { FastifyInstance } from "fastify";
import {
  ZEndUserExport,
  ZEndUserSelector,
  ZErasureResult,
} from "../../../shared/schemas/end-users.ts";
import type { Services } from "../../services.ts";
import { addRoutes, type Route, route } from "./route.ts";

export function endUsersRouteTable(services: Services): Route[] {
  return [
    route({
      method: "GET",
      url: "/v1/end-users/export",
      tag: "decisions",
      summary:
        "Everything stored about one of your end users (by email, user_id, device_id or ip), each item with where it came from",
      op: "endUsersApi.export",
      auth: "apiKey",
      query: ZEndUserSelector,
      response: ZEndUserExport,
      handler: ({ caller, query }) => services.endUsers.export(caller.accountId, query),
    }),
    route({
      method: "POST",
      url: "/v1/end-users/erase",
      tag: "decisions",
      summary:
        "Erase one of your end users (by email, user_id, device_id or ip) in one transaction; says what was erased and what is kept",
      op: "endUsersApi.erase",
      auth: "apiKey",
      body: ZEndUserSelector,
      response: ZErasureResult,
      examples: { body: { email: "customer@example.com" } },
      handler: ({ caller, body }) => services.endUsers.erase(caller.accountId, body),
    }),
  ];
}

export async function endUsersRoutes(app: FastifyInstance, { services }: { services: Services }) {
  addRoutes(app, endUsersRouteTable(services), services);
}
