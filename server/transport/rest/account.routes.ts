/**
 * The account's own data as REST, for scripts with `Authorization: Bearer <token>` from
 * POST /api/auth/login: export the configuration, import one, delete the account. Each row
 * names its operation (transport/access.ts) and calls the same service as the console.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  CONFIG_MAX_BYTES,
  ZAccountConfig,
  ZAccountConfigInput,
  ZAccountDelete,
  ZConfigImported,
} from "../../../shared/schemas/account-config.ts";
import type { Services } from "../../services.ts";
import { addRoutes, type Route, route } from "./route.ts";

const ZOk = z.object({ ok: z.literal(true) });

export function accountRouteTable(services: Services): Route[] {
  const { accountData } = services;
  const session = "session" as const;
  return [
    route({
      method: "GET",
      url: "/account/config",
      tag: "account",
      summary:
        "The account's configuration as one JSON document (rules, templates, rule settings, score thresholds, lists, allowed origins, settings and webhook endpoints without secrets, security, retention); owners and admins",
      op: "account.exportConfig",
      auth: session,
      response: ZAccountConfig,
      errors: [403],
      handler: ({ caller }) => accountData.exportConfig(caller.accountId),
    }),
    route({
      method: "POST",
      url: "/account/config",
      tag: "account",
      summary:
        "Import a configuration document (owners only): validated whole, then every section it carries applied in one transaction; answers what changed per section, and each new webhook endpoint's signing secret once",
      op: "account.importConfig",
      auth: session,
      body: ZAccountConfigInput,
      bodyLimit: CONFIG_MAX_BYTES,
      response: ZConfigImported,
      errors: [403, 404, 413],
      examples: {
        body: { warden_config: 1, blocklist: { countries: ["KP"], email_providers: [] } },
      },
      handler: ({ caller, body }) => accountData.importConfig(caller, body),
    }),
    route({
      method: "DELETE",
      url: "/account",
      tag: "account",
      summary:
        'Delete the account and all its data (owners only): type its name, or "delete", and your password; your sessions end',
      op: "account.delete",
      auth: session,
      body: ZAccountDelete,
      response: ZOk,
      errors: [403, 404, 429],
      examples: { body: { confirm: "delete", password: "your password" } },
      handler: async ({ caller, body }) => {
        await accountData.deleteAccount(caller, body);
        return { ok: true };
      },
    }),
  ];
}

export async function accountRoutes(app: FastifyInstance, { services }: { services: Services }) {
  addRoutes(app, accountRouteTable(services), services);
}
