/**
 * The audit log as REST, for scripts with `Authorization: Bearer <token>` (and the console's
 * "Export CSV" link, with its cookie): a page of events as JSON, and every matching event as
 * CSV. The CSV is streamed a page at a time, so it is not a table row (route.ts answers
 * JSON); it passes the same gate first (transport/access.ts), then parses its query with the
 * same shared schema, so a bad filter is the same 400 naming the field.
 */
import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { ZAuditApiQuery, ZAuditExportQuery, ZAuditPage } from "../../../shared/schemas/audit.ts";
import type { Services } from "../../services.ts";
import { pass } from "../access.ts";
import { ERROR_BODY, jsonSchema } from "./openapi.plugin.ts";
import { addRoutes, type Route, route } from "./route.ts";

export function auditRouteTable(services: Services): Route[] {
  return [
    route({
      method: "GET",
      url: "/audit",
      tag: "audit",
      summary:
        "The account's audit log, newest first: who changed what, when, from which IP, with before and after (secrets masked); filter by action (a name, or a prefix ending with '.', comma-separated), actor, since and until",
      op: "audit.list",
      auth: "session",
      query: ZAuditApiQuery,
      response: ZAuditPage,
      handler: ({ caller, query }) => services.audit.page(caller.accountId, query),
    }),
  ];
}

/** GET /api/audit.csv: every event the filters match, newest first, as a download. */
function exportRoute(app: FastifyInstance, services: Services): void {
  app.route({
    method: "GET",
    url: "/audit.csv",
    schema: {
      tags: ["audit"],
      summary:
        "Every event of the audit log the filters match, newest first, as CSV (at, actor_kind, actor, ip, action, target, before, after); a cell that would start a spreadsheet formula starts with an apostrophe",
      security: [{ bearerAuth: [] }],
      querystring: jsonSchema(ZAuditExportQuery, "input"),
      response: {
        200: {
          description: "audit-YYYY-MM-DD.csv",
          content: { "text/csv": { schema: { type: "string" } } },
        },
        ...Object.fromEntries([400, 401, 403].map((status) => [status, ERROR_BODY])),
      },
    },
    handler: async (request, reply) => {
      const call = { services, caller: request.caller, session: request.session, ip: request.ip };
      return pass("audit.export", call, request.query, async () => {
        const caller = request.caller;
        if (!caller) throw new Error("pass let a call without a caller in");
        const filters = ZAuditExportQuery.parse(request.query);
        const lines = services.audit.csv(caller.accountId, filters);
        // The header and the first page are read before anything is sent: a failure there is
        // still an ordinary error answer, not a download cut short.
        const first = await lines.next();
        async function* all() {
          if (!first.done) yield first.value;
          yield* lines;
        }
        return reply
          .header("content-type", "text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="${services.audit.csvFileName()}"`)
          .header("cache-control", "no-store")
          .send(Readable.from(all()));
      });
    },
  });
}

export async function auditRoutes(app: FastifyInstance, { services }: { services: Services }) {
  addRoutes(app, auditRouteTable(services), services);
  exportRoute(app, services);
}
