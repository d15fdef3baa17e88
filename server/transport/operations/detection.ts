/**
 * Configuring detection: rules, templates, the block list, settings and each rule's settings.
 * REST under /api for scripts with `Authorization: Bearer <token>` from POST /api/auth/login.
 */
import { z } from "zod";
import { ZBlocklist, ZBlocklistView } from "../../../shared/schemas/blocklist.ts";
import { ZRuleSettings, ZRuleSettingsUpdate } from "../../../shared/schemas/rule-settings.ts";
import { RULE_KEYS, ZRules } from "../../../shared/schemas/rules.ts";
import { ZSettingsInput, ZSettingsView } from "../../../shared/schemas/settings.ts";
import { TEMPLATE_KEYS, ZTemplates } from "../../../shared/schemas/templates.ts";
import { audits, op } from "../operation.ts";

const { snap } = audits;
const perRule = <T extends z.ZodType>(schema: T) =>
  z.object(Object.fromEntries(RULE_KEYS.map((key) => [key, schema])) as Record<string, T>);

export const rules = {
  get: op({
    need: "read",
    kind: "query",
    output: ZRules,
    handler: ({ services, caller }) => services.rules.get(caller.accountId),
    rest: {
      method: "GET",
      path: "/rules",
      tag: "rules",
      summary: "Rules settings, merged over defaults",
    },
  }),
  put: op({
    need: "configure",
    audit: snap((s, a) => s.rules.get(a)),
    kind: "mutation",
    input: ZRules,
    output: ZRules,
    handler: ({ services, caller }, input) => services.rules.put(caller.accountId, input),
    rest: {
      method: "PUT",
      path: "/rules",
      tag: "rules",
      summary: "Replace the whole rules object",
    },
  }),
};

export const templates = {
  get: op({
    need: "read",
    kind: "query",
    output: ZTemplates,
    handler: ({ services, caller }) => services.templates.get(caller.accountId),
    rest: { method: "GET", path: "/templates", tag: "templates", summary: "Template flags" },
  }),
  put: op({
    need: "configure",
    audit: snap((s, a) => s.templates.get(a)),
    kind: "mutation",
    input: ZTemplates,
    output: ZTemplates,
    handler: ({ services, caller }, input) => services.templates.put(caller.accountId, input),
    rest: {
      method: "PUT",
      path: "/templates",
      tag: "templates",
      summary: "Replace the whole templates object",
    },
  }),
};

export const blocklist = {
  get: op({
    need: "read",
    kind: "query",
    output: ZBlocklistView,
    handler: ({ services, caller }) => services.blocklist.get(caller.accountId),
    rest: {
      method: "GET",
      path: "/blocklist",
      tag: "blocklist",
      summary: "Blocked countries and providers",
    },
  }),
  put: op({
    need: "configure",
    audit: snap((s, a) => s.blocklist.get(a)),
    kind: "mutation",
    input: ZBlocklist,
    output: ZBlocklistView,
    handler: ({ services, caller }, input) => services.blocklist.put(caller.accountId, input),
    rest: {
      method: "PUT",
      path: "/blocklist",
      tag: "blocklist",
      summary: "Replace the whole block list",
    },
  }),
};

export const settings = {
  get: op({
    need: "read",
    kind: "query",
    output: ZSettingsView,
    handler: ({ services, caller }) => services.settings.get(caller.accountId),
    rest: {
      method: "GET",
      path: "/settings",
      tag: "settings",
      summary: "Settings; secrets come back only as hints",
    },
  }),
  put: op({
    need: "configure",
    audit: snap((s, a) => s.settings.get(a)),
    kind: "mutation",
    input: ZSettingsInput,
    output: ZSettingsView,
    handler: ({ services, caller }, input) => services.settings.put(caller.accountId, input),
    rest: {
      method: "PUT",
      path: "/settings",
      tag: "settings",
      summary: "Replace the settings; a blank secret keeps the stored one",
    },
  }),
};

export const ruleSettings = {
  /** Each rule's action, mode and parameters, as the merchant set them over the defaults. */
  get: op({
    need: "read",
    kind: "query",
    output: ZRuleSettings,
    handler: ({ services, caller }) => services.ruleSettings.get(caller.accountId),
    rest: {
      method: "GET",
      path: "/rule-settings",
      tag: "rules",
      summary: "Each rule's action, mode and parameters, over the defaults",
    },
  }),
  /** Any subset of rules and fields; the rest is kept. */
  put: op({
    need: "configure",
    audit: snap((s, a) => s.ruleSettings.get(a)),
    kind: "mutation",
    input: ZRuleSettingsUpdate,
    output: ZRuleSettings,
    handler: ({ services, caller }, input) => services.ruleSettings.put(caller.accountId, input),
    rest: {
      method: "PUT",
      path: "/rule-settings",
      tag: "rules",
      summary:
        "Change any rules' action (block|review), mode (live|monitor) or parameters; the rest is kept",
    },
  }),
  /** What runs for screened events: rules on (own flag or template), settings, and drivers. */
  effective: op({
    need: "read",
    kind: "query",
    output: z.object({
      enabled: perRule(z.boolean()),
      settings: ZRuleSettings,
      drivenBy: perRule(z.array(z.enum(TEMPLATE_KEYS))),
    }),
    handler: ({ services, caller }) => services.ruleSettings.effective(caller.accountId),
  }),
};
