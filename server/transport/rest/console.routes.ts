/**
 * The console's configuration as REST, for scripts and other backends with
 * `Authorization: Bearer <token>` from POST /api/auth/login: one table row per route, each
 * calling the same tRPC procedure as the console (route.ts validates and documents).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
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
  ZTransaction,
} from "../../../shared/schemas/transaction.ts";
import type { Services } from "../../services.ts";
import { callerFor } from "./caller.ts";
import { addRoutes, type Route, route } from "./route.ts";

const ZId = z.object({ id: z.string() });
const ZLogin = z.object({
  token: z.string(),
  expiresAt: z.string(),
  user: z.object({ id: z.string(), email: z.string() }).loose(),
});

/** Every console route under /api, as a table: method, path, what it answers, the one call. */
export function consoleRouteTable(services: Services): Route[] {
  const caller = (request: FastifyRequest) => callerFor(request, services);
  const session = "session" as const;
  return [
    route({
      method: "POST",
      url: "/auth/login",
      tag: "auth",
      summary: "Exchange credentials for a bearer token, for scripts and other backends",
      auth: "none",
      body: ZCredentials,
      response: ZLogin,
      errors: [429],
      handler: async ({ body }, request) => {
        const { token, expiresAt, user } = await services.auth.login(body, request.ip);
        return { token, expiresAt: expiresAt.toISOString(), user };
      },
    }),
    route({
      method: "POST",
      url: "/auth/logout",
      tag: "auth",
      summary: "End this token's session (without one, nothing to end)",
      auth: "none",
      response: z.unknown(),
      handler: (_, request) => caller(request).auth.logout(),
    }),
    route({
      method: "GET",
      url: "/me",
      tag: "auth",
      summary:
        "Who this token belongs to ({ user: null } for none: a script asks before it logs in)",
      auth: "none",
      response: z.unknown(),
      handler: async (_, request) => ({ user: await caller(request).auth.me() }),
    }),
    route({
      method: "GET",
      url: "/dashboard",
      tag: "dashboard",
      summary: "The account's transactions, newest first",
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
      handler: async ({ query }, request) => {
        const page = await caller(request).dashboard.list({ limit: query.limit });
        return page.items.map(toSpecTransaction);
      },
    }),
    route({
      method: "GET",
      url: "/rules",
      tag: "rules",
      summary: "Rules settings, merged over defaults",
      auth: session,
      response: ZRules,
      handler: (_, request) => caller(request).rules.get(),
    }),
    route({
      method: "PUT",
      url: "/rules",
      tag: "rules",
      summary: "Replace the whole rules object",
      auth: session,
      body: ZRules,
      response: ZRules,
      handler: ({ body }, request) => caller(request).rules.put(body),
    }),
    route({
      method: "GET",
      url: "/templates",
      tag: "templates",
      summary: "Template flags",
      auth: session,
      response: ZTemplates,
      handler: (_, request) => caller(request).templates.get(),
    }),
    route({
      method: "PUT",
      url: "/templates",
      tag: "templates",
      summary: "Replace the whole templates object",
      auth: session,
      body: ZTemplates,
      response: ZTemplates,
      handler: ({ body }, request) => caller(request).templates.put(body),
    }),
    route({
      method: "GET",
      url: "/blocklist",
      tag: "blocklist",
      summary: "Blocked countries and providers",
      auth: session,
      response: ZBlocklistView,
      handler: (_, request) => caller(request).blocklist.get(),
    }),
    route({
      method: "PUT",
      url: "/blocklist",
      tag: "blocklist",
      summary: "Replace the whole block list",
      auth: session,
      body: ZBlocklist,
      response: ZBlocklistView,
      handler: ({ body }, request) => caller(request).blocklist.put(body),
    }),
    route({
      method: "GET",
      url: "/allowlist",
      tag: "allowlist",
      summary: "Values always allowed, whatever the rules say (the block list still wins)",
      auth: session,
      response: ZAllowEntryView.array(),
      handler: (_, request) => caller(request).allowList.list(),
    }),
    route({
      method: "POST",
      url: "/allowlist",
      tag: "allowlist",
      summary: "Allow a user id, email, email domain, device, card or address range",
      auth: session,
      body: ZAllowEntryInput,
      response: ZAllowEntryView,
      examples: { body: { kind: "email", value: "vip@example.com", note: "key account" } },
      handler: ({ body }, request) => caller(request).allowList.add(body),
    }),
    route({
      method: "DELETE",
      url: "/allowlist/:id",
      tag: "allowlist",
      summary: "Remove an entry: screenings are judged by the rules alone again",
      auth: session,
      params: ZAllowEntryRef,
      response: null,
      errors: [404],
      handler: ({ params }, request) => caller(request).allowList.remove({ id: params.id }),
    }),
    route({
      method: "GET",
      url: "/allowed-origins",
      tag: "api-keys",
      summary: "Origins warden.js may collect from, and the origins refused lately",
      auth: session,
      response: ZAllowedOriginsView,
      handler: (_, request) => caller(request).allowedOrigins.get(),
    }),
    route({
      method: "PUT",
      url: "/allowed-origins",
      tag: "api-keys",
      summary: "Replace the allowed origins (rule_referrer_mismatch compares with them too)",
      auth: session,
      body: ZAllowedOriginsInput,
      response: ZAllowedOriginsView,
      examples: { body: { origins: ["https://shop.example.com", "http://localhost:4000"] } },
      handler: ({ body }, request) => caller(request).allowedOrigins.set(body),
    }),
    route({
      method: "POST",
      url: "/allowed-origins",
      tag: "api-keys",
      summary: "Allow one more origin (kept once if it is listed already)",
      auth: session,
      body: ZAllowOriginInput,
      response: ZAllowedOriginsView,
      examples: { body: { origin: "http://localhost:4000" } },
      handler: ({ body }, request) => caller(request).allowedOrigins.allow(body),
    }),
    route({
      method: "GET",
      url: "/settings",
      tag: "settings",
      summary: "Settings; secrets come back only as hints",
      auth: session,
      response: ZSettingsView,
      handler: (_, request) => caller(request).settings.get(),
    }),
    route({
      method: "PUT",
      url: "/settings",
      tag: "settings",
      summary: "Replace the settings; a blank secret keeps the stored one",
      auth: session,
      body: ZSettingsInput,
      response: ZSettingsView,
      handler: ({ body }, request) => caller(request).settings.put(body),
    }),
    route({
      method: "GET",
      url: "/rule-settings",
      tag: "rules",
      summary: "Each rule's action, mode and parameters, over the defaults",
      auth: session,
      response: ZRuleSettings,
      handler: (_, request) => caller(request).ruleSettings.get(),
    }),
    route({
      method: "PUT",
      url: "/rule-settings",
      tag: "rules",
      summary:
        "Change any rules' action (block|review), mode (live|monitor) or parameters; the rest is kept",
      auth: session,
      body: ZRuleSettingsUpdate,
      response: ZRuleSettings,
      handler: ({ body }, request) => caller(request).ruleSettings.put(body),
    }),
    route({
      method: "GET",
      url: "/api-keys",
      tag: "api-keys",
      summary: "The account's live API keys",
      auth: session,
      response: ZApiKeyView.array(),
      handler: (_, request) => caller(request).apiKeys.list(),
    }),
    route({
      method: "POST",
      url: "/api-keys",
      tag: "api-keys",
      summary: "Create a key; the answer is the only time it is shown",
      auth: session,
      body: ZApiKeyCreate,
      response: ZApiKeyCreated,
      handler: ({ body }, request) => caller(request).apiKeys.create(body),
    }),
    route({
      method: "DELETE",
      url: "/api-keys/:id",
      tag: "api-keys",
      summary: "Revoke a key: it stops working at once",
      auth: session,
      params: ZId,
      response: null,
      errors: [404],
      handler: ({ params }, request) => caller(request).apiKeys.revoke({ id: params.id }),
    }),
  ];
}

export async function consoleRoutes(app: FastifyInstance, { services }: { services: Services }) {
  addRoutes(app, consoleRouteTable(services));
}
