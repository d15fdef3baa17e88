/**
 * The console's configuration as REST, for scripts and other backends with
 * `Authorization: Bearer <token>` from POST /api/auth/login: one table row per route, each
 * naming its operation (transport/access.ts: the role it needs, the audit event it writes)
 * and calling the same service as the console's procedure (route.ts validates and documents).
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  ZAllowEntryInput,
  ZAllowEntryRef,
  ZAllowEntryView,
} from "../../../shared/schemas/allow-list.ts";
import {
  ZAllowedOriginsInput,
  ZAllowedOriginsView,
  ZAllowOriginInput,
} from "../../../shared/schemas/allowed-origins.ts";
import { ZApiKeyCreate, ZApiKeyCreated, ZApiKeyView } from "../../../shared/schemas/api-keys.ts";
import { ZCredentials } from "../../../shared/schemas/auth.ts";
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
  ZDashboardListInput,
  ZTransaction,
} from "../../../shared/schemas/transaction.ts";
import type { Services } from "../../services.ts";
import { addRoutes, type Route, route } from "./route.ts";

const ZId = z.object({ id: z.string() });
const ZLogin = z.object({
  token: z.string(),
  expiresAt: z.string(),
  /** The token does nothing but POST /api/auth/two-factor until the second factor is given. */
  twoFactorRequired: z.boolean(),
  user: z.object({ id: z.string(), email: z.string() }).loose(),
});

/** Every console route under /api, as a table: method, path, what it answers, the one call. */
export function consoleRouteTable(services: Services): Route[] {
  const session = "session" as const;
  return [
    route({
      method: "POST",
      url: "/auth/login",
      tag: "auth",
      summary: "Exchange credentials for a bearer token, for scripts and other backends",
      op: "auth.login",
      auth: "none",
      body: ZCredentials,
      response: ZLogin,
      errors: [429],
      handler: async ({ body }, request) => {
        const login = await services.auth.login(body, request.ip);
        const { token, expiresAt, twoFactorRequired, user } = login;
        return { token, expiresAt: expiresAt.toISOString(), twoFactorRequired, user };
      },
    }),
    route({
      method: "POST",
      url: "/auth/logout",
      tag: "auth",
      summary: "End this token's session (without one, nothing to end)",
      op: "auth.logout",
      auth: "none",
      response: z.unknown(),
      handler: async (_, request) => {
        if (request.session) await services.auth.logout(request.session.id);
        return { ok: true };
      },
    }),
    route({
      method: "GET",
      url: "/me",
      tag: "auth",
      summary:
        "Who this token belongs to ({ user: null } for none: a script asks before it logs in)",
      op: "auth.me",
      auth: "none",
      response: z.unknown(),
      handler: async (_, request) => ({ user: request.session?.user ?? null }),
    }),
    route({
      method: "GET",
      url: "/dashboard",
      tag: "dashboard",
      summary: "The account's transactions, newest first",
      op: "dashboard.list",
      auth: session,
      query: ZDashboardApiQuery,
      response: ZTransaction.array(),
      openapi: {
        querystring: {
          type: "object",
          properties: {
            limit: { type: "integer", minimum: 1, maximum: LIMIT_MAX, default: API_LIMIT_DEFAULT },
          },
        },
      },
      handler: async ({ caller, query }) => {
        const input = ZDashboardListInput.parse({ limit: query.limit });
        const page = await services.transactions.list(caller.accountId, input);
        return page.items.map(toSpecTransaction);
      },
    }),
    route({
      method: "GET",
      url: "/rules",
      tag: "rules",
      summary: "Rules settings, merged over defaults",
      op: "rules.get",
      auth: session,
      response: ZRules,
      handler: ({ caller }) => services.rules.get(caller.accountId),
    }),
    route({
      method: "PUT",
      url: "/rules",
      tag: "rules",
      summary: "Replace the whole rules object",
      op: "rules.put",
      auth: session,
      body: ZRules,
      response: ZRules,
      handler: ({ caller, body }) => services.rules.put(caller.accountId, body),
    }),
    route({
      method: "GET",
      url: "/templates",
      tag: "templates",
      summary: "Template flags",
      op: "templates.get",
      auth: session,
      response: ZTemplates,
      handler: ({ caller }) => services.templates.get(caller.accountId),
    }),
    route({
      method: "PUT",
      url: "/templates",
      tag: "templates",
      summary: "Replace the whole templates object",
      op: "templates.put",
      auth: session,
      body: ZTemplates,
      response: ZTemplates,
      handler: ({ caller, body }) => services.templates.put(caller.accountId, body),
    }),
    route({
      method: "GET",
      url: "/blocklist",
      tag: "blocklist",
      summary: "Blocked countries and providers",
      op: "blocklist.get",
      auth: session,
      response: ZBlocklistView,
      handler: ({ caller }) => services.blocklist.get(caller.accountId),
    }),
    route({
      method: "PUT",
      url: "/blocklist",
      tag: "blocklist",
      summary: "Replace the whole block list",
      op: "blocklist.put",
      auth: session,
      body: ZBlocklist,
      response: ZBlocklistView,
      handler: ({ caller, body }) => services.blocklist.put(caller.accountId, body),
    }),
    route({
      method: "GET",
      url: "/allowlist",
      tag: "allowlist",
      summary: "Values always allowed, whatever the rules say (the block list still wins)",
      op: "allowList.list",
      auth: session,
      response: ZAllowEntryView.array(),
      handler: ({ caller }) => services.allowList.list(caller.accountId),
    }),
    route({
      method: "POST",
      url: "/allowlist",
      tag: "allowlist",
      summary: "Allow a user id, email, email domain, device, card or address range",
      op: "allowList.add",
      auth: session,
      body: ZAllowEntryInput,
      response: ZAllowEntryView,
      examples: { body: { kind: "email", value: "vip@example.com", note: "key account" } },
      handler: ({ caller, body }) =>
        services.allowList.add(caller.accountId, body, caller.email ?? ""),
    }),
    route({
      method: "DELETE",
      url: "/allowlist/:id",
      tag: "allowlist",
      summary: "Remove an entry: screenings are judged by the rules alone again",
      op: "allowList.remove",
      auth: session,
      params: ZAllowEntryRef,
      response: null,
      errors: [404],
      handler: ({ caller, params }) => services.allowList.remove(caller.accountId, params.id),
    }),
    route({
      method: "GET",
      url: "/allowed-origins",
      tag: "api-keys",
      summary: "Origins warden.js may collect from, and the origins refused lately",
      op: "allowedOrigins.get",
      auth: session,
      response: ZAllowedOriginsView,
      handler: ({ caller }) => services.origins.view(caller.accountId),
    }),
    route({
      method: "PUT",
      url: "/allowed-origins",
      tag: "api-keys",
      summary: "Replace the allowed origins (rule_referrer_mismatch compares with them too)",
      op: "allowedOrigins.set",
      auth: session,
      body: ZAllowedOriginsInput,
      response: ZAllowedOriginsView,
      examples: { body: { origins: ["https://shop.example.com", "http://localhost:4000"] } },
      handler: ({ caller, body }) => services.origins.set(caller.accountId, body.origins),
    }),
    route({
      method: "POST",
      url: "/allowed-origins",
      tag: "api-keys",
      summary: "Allow one more origin (kept once if it is listed already)",
      op: "allowedOrigins.allow",
      auth: session,
      body: ZAllowOriginInput,
      response: ZAllowedOriginsView,
      examples: { body: { origin: "http://localhost:4000" } },
      handler: ({ caller, body }) => services.origins.allow(caller.accountId, body.origin),
    }),
    route({
      method: "GET",
      url: "/settings",
      tag: "settings",
      summary: "Settings; secrets come back only as hints",
      op: "settings.get",
      auth: session,
      response: ZSettingsView,
      handler: ({ caller }) => services.settings.get(caller.accountId),
    }),
    route({
      method: "PUT",
      url: "/settings",
      tag: "settings",
      summary: "Replace the settings; a blank secret keeps the stored one",
      op: "settings.put",
      auth: session,
      body: ZSettingsInput,
      response: ZSettingsView,
      handler: ({ caller, body }) => services.settings.put(caller.accountId, body),
    }),
    route({
      method: "GET",
      url: "/rule-settings",
      tag: "rules",
      summary: "Each rule's action, mode and parameters, over the defaults",
      op: "ruleSettings.get",
      auth: session,
      response: ZRuleSettings,
      handler: ({ caller }) => services.ruleSettings.get(caller.accountId),
    }),
    route({
      method: "PUT",
      url: "/rule-settings",
      tag: "rules",
      summary:
        "Change any rules' action (block|review), mode (live|monitor) or parameters; the rest is kept",
      op: "ruleSettings.put",
      auth: session,
      body: ZRuleSettingsUpdate,
      response: ZRuleSettings,
      handler: ({ caller, body }) => services.ruleSettings.put(caller.accountId, body),
    }),
    route({
      method: "GET",
      url: "/api-keys",
      tag: "api-keys",
      summary: "The account's live API keys",
      op: "apiKeys.list",
      auth: session,
      response: ZApiKeyView.array(),
      handler: ({ caller }) => services.apiKeys.list(caller.accountId),
    }),
    route({
      method: "POST",
      url: "/api-keys",
      tag: "api-keys",
      summary: "Create a key; the answer is the only time it is shown",
      op: "apiKeys.create",
      auth: session,
      body: ZApiKeyCreate,
      response: ZApiKeyCreated,
      handler: ({ caller, body }) => services.apiKeys.create(caller.accountId, body),
    }),
    route({
      method: "DELETE",
      url: "/api-keys/:id",
      tag: "api-keys",
      summary: "Revoke a key: it stops working at once",
      op: "apiKeys.revoke",
      auth: session,
      params: ZId,
      response: null,
      errors: [404],
      handler: ({ caller, params }) => services.apiKeys.revoke(caller.accountId, params.id),
    }),
  ];
}

export async function consoleRoutes(app: FastifyInstance, { services }: { services: Services }) {
  addRoutes(app, consoleRouteTable(services), services);
}
