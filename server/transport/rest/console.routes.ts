/**
 * GET/PUT /api/rules, /api/rule-settings, /api/templates, /api/blocklist, /api/settings,
 * GET/POST/DELETE /api/api-keys and GET /api/dashboard:
 * the documented REST paths, each calling the same tRPC procedure as the console. The JSON
 * schemas here only document the API; the shared zod schemas inside the procedures are the
 * one validator, so Fastify's own validation and serialization are switched off.
 */
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { ZApiKeyCreate, ZApiKeyCreated, ZApiKeyView } from "../../../shared/schemas/api-keys.ts";
import { ZBlocklist, ZBlocklistView } from "../../../shared/schemas/blocklist.ts";
import { ZRuleSettings, ZRuleSettingsUpdate } from "../../../shared/schemas/rule-settings.ts";
import { ZRules } from "../../../shared/schemas/rules.ts";
import { ZSettingsInput, ZSettingsView } from "../../../shared/schemas/settings.ts";
import { ZTemplates } from "../../../shared/schemas/templates.ts";
import {
  API_LIMIT_DEFAULT,
  LIMIT_MAX,
  toSpecTransaction,
  ZDashboardApiQuery,
  ZTransaction,
} from "../../../shared/schemas/transaction.ts";
import type { Services } from "../../services.ts";
import { callerFor } from "./caller.ts";
import { ERROR_BODY, jsonSchema } from "./openapi.plugin.ts";

const security = [{ bearerAuth: [] }];
const ZTransactions = ZTransaction.array();

function docs(
  tag: string,
  summary: string,
  response: z.ZodType,
  body?: z.ZodType,
): { schema: Record<string, unknown> } {
  return {
    schema: {
      tags: [tag],
      summary,
      security,
      ...(body && { body: jsonSchema(body, "input") }),
      response: {
        200: jsonSchema(response),
        ...(body && { 400: ERROR_BODY }),
        401: ERROR_BODY,
      },
    },
  };
}

export async function consoleRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  const caller = (request: Parameters<typeof callerFor>[0]) => callerFor(request, services);

  const dashboardDocs = docs(
    "dashboard",
    "The account's transactions, newest first",
    ZTransactions,
  );
  app.get(
    "/dashboard",
    {
      schema: {
        ...dashboardDocs.schema,
        querystring: {
          type: "object",
          properties: {
            limit: { type: "integer", minimum: 1, maximum: LIMIT_MAX, default: API_LIMIT_DEFAULT },
          },
        },
        response: { ...(dashboardDocs.schema.response as object), 400: ERROR_BODY },
      },
    },
    async (request) => {
      const { limit } = ZDashboardApiQuery.parse(request.query);
      const page = await caller(request).dashboard.list({ limit });
      return page.items.map(toSpecTransaction);
    },
  );

  app.get("/rules", docs("rules", "Rules settings, merged over defaults", ZRules), (request) =>
    caller(request).rules.get(),
  );
  app.put("/rules", docs("rules", "Replace the whole rules object", ZRules, ZRules), (request) =>
    caller(request).rules.put(request.body as z.input<typeof ZRules>),
  );

  app.get("/templates", docs("templates", "Template flags", ZTemplates), (request) =>
    caller(request).templates.get(),
  );
  app.put(
    "/templates",
    docs("templates", "Replace the whole templates object", ZTemplates, ZTemplates),
    (request) => caller(request).templates.put(request.body as z.input<typeof ZTemplates>),
  );

  app.get(
    "/blocklist",
    docs("blocklist", "Blocked countries and providers", ZBlocklistView),
    (request) => caller(request).blocklist.get(),
  );
  app.put(
    "/blocklist",
    docs("blocklist", "Replace the whole block list", ZBlocklistView, ZBlocklist),
    (request) => caller(request).blocklist.put(request.body as z.input<typeof ZBlocklist>),
  );

  app.get(
    "/settings",
    docs("settings", "Settings; secrets come back only as hints", ZSettingsView),
    (request) => caller(request).settings.get(),
  );
  app.put(
    "/settings",
    docs(
      "settings",
      "Replace the settings; a blank secret keeps the stored one",
      ZSettingsView,
      ZSettingsInput,
    ),
    (request) => caller(request).settings.put(request.body as z.input<typeof ZSettingsInput>),
  );

  app.get(
    "/rule-settings",
    docs("rules", "Each rule's action, mode and parameters, over the defaults", ZRuleSettings),
    (request) => caller(request).ruleSettings.get(),
  );
  app.put(
    "/rule-settings",
    docs(
      "rules",
      "Change any rules' action (block|review), mode (live|monitor) or parameters; the rest is kept",
      ZRuleSettings,
      ZRuleSettingsUpdate,
    ),
    (request) =>
      caller(request).ruleSettings.put(request.body as z.input<typeof ZRuleSettingsUpdate>),
  );

  app.get(
    "/api-keys",
    docs("api-keys", "The account's live API keys", ZApiKeyView.array()),
    (request) => caller(request).apiKeys.list(),
  );
  app.post(
    "/api-keys",
    docs(
      "api-keys",
      "Create a key; the answer is the only time it is shown",
      ZApiKeyCreated,
      ZApiKeyCreate,
    ),
    (request) => caller(request).apiKeys.create(request.body as z.input<typeof ZApiKeyCreate>),
  );
  app.delete(
    "/api-keys/:id",
    {
      schema: {
        tags: ["api-keys"],
        summary: "Revoke a key: it stops working at once",
        security,
        params: { type: "object", properties: { id: { type: "string" } } },
        response: { 204: { type: "null" }, 401: ERROR_BODY, 404: ERROR_BODY },
      },
    },
    async (request, reply) => {
      await caller(request).apiKeys.revoke({ id: (request.params as { id: string }).id });
      return reply.code(204).send();
    },
  );
}
