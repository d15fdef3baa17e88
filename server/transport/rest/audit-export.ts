/**
 * GET /api/audit.csv: every event of the audit log the filters match, newest first, as a
 * download (scripts with `Authorization: Bearer <token>`, and the console's "Export CSV" link
 * with its cookie). Streamed a page at a time, so it is not a row's route (those answer
 * JSON); it passes the same gate first (transport/access.ts), then parses its query with the
 * same shared schema, so a bad filter is the same 400 naming the field.
 */
import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { ZAuditExportQuery } from "../../../shared/schemas/audit.ts";
import type { Services } from "../../services.ts";
import { pass } from "../access.ts";
import { DIRECT } from "../operations/index.ts";
import { ERROR_BODY, jsonSchema } from "./openapi.plugin.ts";

export function auditExportRoute(app: FastifyInstance, services: Services): void {
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
      return pass(DIRECT["audit.export"], call, request.query, async (caller) => {
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
