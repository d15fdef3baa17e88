/**
 * The keys a merchant's code uses and what Warden calls back: allowed origins (warden.js),
 * API keys and decision webhooks. REST under /api for scripts with a bearer token.
 */
import { z } from "zod";
import {
  ZAllowedOriginsInput,
  ZAllowedOriginsView,
  ZAllowOriginInput,
} from "../../../shared/schemas/allowed-origins.ts";
import { ZApiKeyCreate, ZApiKeyCreated, ZApiKeyView } from "../../../shared/schemas/api-keys.ts";
import { storableString } from "../../../shared/schemas/storable.ts";
import {
  ZWebhookDeliveryView,
  ZWebhookEndpointCreated,
  ZWebhookEndpointInput,
  ZWebhookEndpointLimit,
  ZWebhookEndpointView,
  ZWebhookRef,
} from "../../../shared/schemas/webhooks.ts";
import { audits, byId, op } from "../operation.ts";

const { snap } = audits;

/** The merchant's allowed origins (Settings → API keys) and the origins refused lately. */
export const allowedOrigins = {
  get: op({
    need: "read",
    kind: "query",
    output: ZAllowedOriginsView,
    handler: ({ services, caller }) => services.origins.view(caller.accountId),
    rest: {
      method: "GET",
      path: "/allowed-origins",
      tag: "api-keys",
      summary: "Origins warden.js may collect from, and the origins refused lately",
    },
  }),
  set: op({
    need: "configure",
    audit: snap((s, a) => s.origins.view(a)),
    kind: "mutation",
    input: ZAllowedOriginsInput,
    output: ZAllowedOriginsView,
    handler: ({ services, caller }, input) => services.origins.set(caller.accountId, input.origins),
    rest: {
      method: "PUT",
      path: "/allowed-origins",
      tag: "api-keys",
      summary: "Replace the allowed origins (rule_referrer_mismatch compares with them too)",
      examples: { body: { origins: ["https://shop.example.com", "http://localhost:4000"] } },
    },
  }),
  allow: op({
    need: "configure",
    audit: snap((s, a) => s.origins.view(a)),
    kind: "mutation",
    input: ZAllowOriginInput,
    output: ZAllowedOriginsView,
    handler: ({ services, caller }, input) =>
      services.origins.allow(caller.accountId, input.origin),
    rest: {
      method: "POST",
      path: "/allowed-origins",
      tag: "api-keys",
      summary: "Allow one more origin (kept once if it is listed already)",
      examples: { body: { origin: "http://localhost:4000" } },
    },
  }),
};

export const apiKeys = {
  list: op({
    need: "read",
    kind: "query",
    output: z.array(ZApiKeyView),
    handler: ({ services, caller }) => services.apiKeys.list(caller.accountId),
    rest: {
      method: "GET",
      path: "/api-keys",
      tag: "api-keys",
      summary: "The account's live API keys",
    },
  }),
  /** The answer is the only time the whole key is shown. */
  create: op({
    need: "configure",
    audit: true,
    kind: "mutation",
    input: ZApiKeyCreate,
    output: ZApiKeyCreated,
    handler: ({ services, caller }, input) => services.apiKeys.create(caller.accountId, input),
    rest: {
      method: "POST",
      path: "/api-keys",
      tag: "api-keys",
      summary: "Create a key; the answer is the only time it is shown",
    },
  }),
  revoke: op({
    need: "configure",
    audit: true,
    target: byId,
    kind: "mutation",
    // A NUL in the id reached PostgreSQL, which refused it with a 500.
    input: z.strictObject({ id: storableString().min(1).max(100) }),
    output: z.object({ revoked: z.literal(true) }),
    handler: async ({ services, caller }, input) => {
      await services.apiKeys.revoke(caller.accountId, input.id);
      return { revoked: true as const };
    },
    rest: {
      method: "DELETE",
      path: "/api-keys/:id",
      tag: "api-keys",
      summary: "Revoke a key: it stops working at once",
      // Any id in the path is looked up (unknown: 404); the console's procedure takes 100 characters.
      params: z.object({ id: z.string() }),
      response: null,
      errors: [404],
    },
  }),
};

/** Settings → Decision webhooks: endpoints, the delivery log, and re-send. */
export const webhooks = {
  endpoints: op({
    need: "read",
    kind: "query",
    output: z.array(ZWebhookEndpointView),
    handler: ({ services, caller }) => services.webhooks.listEndpoints(caller.accountId),
  }),
  createEndpoint: op({
    need: "configure",
    audit: true,
    kind: "mutation",
    input: ZWebhookEndpointInput,
    output: ZWebhookEndpointCreated,
    handler: ({ services, caller }, input) =>
      services.webhooks.createEndpoint(caller.accountId, input),
  }),
  endpointLimit: op({
    need: "read",
    kind: "query",
    output: ZWebhookEndpointLimit,
    handler: async ({ services }) => services.webhooks.endpointLimit(),
  }),
  enableEndpoint: op({
    need: "configure",
    audit: true,
    target: byId,
    kind: "mutation",
    input: ZWebhookRef,
    handler: ({ services, caller }, input) =>
      services.webhooks.enableEndpoint(caller.accountId, input.id),
  }),
  removeEndpoint: op({
    need: "configure",
    audit: true,
    target: byId,
    kind: "mutation",
    input: ZWebhookRef,
    handler: ({ services, caller }, input) =>
      services.webhooks.removeEndpoint(caller.accountId, input.id),
  }),
  deliveries: op({
    need: "read",
    kind: "query",
    output: z.array(ZWebhookDeliveryView),
    handler: ({ services, caller }) => services.webhooks.deliveries(caller.accountId),
  }),
  resend: op({
    need: "configure",
    audit: true,
    target: byId,
    kind: "mutation",
    input: ZWebhookRef,
    handler: ({ services, caller }, input) => services.webhooks.resend(caller.accountId, input.id),
  }),
};
