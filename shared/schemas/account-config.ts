/**
 * An account's configuration as one JSON document (Settings → Account → Export / Import):
 * rules, templates, each rule's settings, score thresholds, the block and allow lists, allowed
 * origins, settings without secrets, webhook endpoints without signing secrets, security and
 * retention. Each section is the shape its own PUT takes, validated by the same schemas; an
 * import may leave sections out (they stay as they are). Never in it: API keys, Stripe secrets,
 * webhook signing secrets, team members, stored data, score models (docs/privacy.md).
 */
import { z } from "zod";
import { ZThresholds } from "../score/weights.ts";
import { ZAllowEntryInput } from "./allow-list.ts";
import { ZAllowedOriginsInput } from "./allowed-origins.ts";
import { ZBlocklist } from "./blocklist.ts";
import { ZRetentionSettings } from "./retention.ts";
import { ZRuleSettingsUpdate } from "./rule-settings.ts";
import { ZRules } from "./rules.ts";
import { ZAppName, ZContactEmail, ZStripePublishable } from "./settings.ts";
import { storableInput } from "./storable.ts";
import { ZSecuritySettings } from "./team.ts";
import { ZTemplates } from "./templates.ts";
import { ZWebhookEndpointInput } from "./webhooks.ts";

/** The one version of the document this Warden writes and reads. */
export const CONFIG_VERSION = 1;
/** The largest file an import takes, in bytes (the app's body limit: 413 past it). */
export const CONFIG_MAX_BYTES = 1024 * 1024;
/** The most allow-list entries, and webhook endpoints, one file may carry. */
export const CONFIG_MAX_ALLOW_ENTRIES = 5000;
export const CONFIG_MAX_ENDPOINTS = 100;

/** Ids and bookkeeping a file may carry from where it was exported: ignored, never applied. */
const IGNORED_KEYS = ["id", "account_id", "accountId", "added_by", "created_at"];
const withoutIds = (value: unknown) =>
  value && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter(([key]) => !IGNORED_KEYS.includes(key)))
    : value;

/** One allow-list entry as exported: what allowList.add takes (a null note is no note). */
export const ZConfigAllowEntry = z.preprocess((value) => {
  const entry = withoutIds(value);
  if (entry && typeof entry === "object" && "note" in entry && entry.note === null) {
    const { note: _note, ...rest } = entry as Record<string, unknown>;
    return rest;
  }
  return entry;
}, ZAllowEntryInput);

const ZConfigEndpoint = z.preprocess(withoutIds, ZWebhookEndpointInput);

/**
 * Each kind of data's retention in days, as retention.put takes it (null: the instance's
 * default); the audit log's is in `security`.
 */
export const ZConfigRetention = ZRetentionSettings.omit({ audit_log: true });
export type ConfigRetention = z.infer<typeof ZConfigRetention>;

const days = z.number().nullable();
/** The retention section as an export writes it: every kind. */
export const ZConfigRetentionExport = z.object({
  screenings: days,
  collector_tokens: days,
  identities: days,
  webhook_deliveries: days,
  charges_personal: days,
});

/** Settings without any secret or hint of one. */
export const ZConfigSettings = z.strictObject({
  app_name: ZAppName,
  contact_email: ZContactEmail,
  stripe_publishable: ZStripePublishable,
});

/**
 * The document as an import reads it: every section optional, each validated as its PUT.
 * Text the database cannot store (NUL), anywhere in the file, value or key, is a 400 naming
 * where it is, before any section is read.
 */
export const ZAccountConfigInput = storableInput(
  z.object({
    warden_config: z.literal(CONFIG_VERSION, {
      message: `must be ${CONFIG_VERSION}: this Warden reads configuration files of version ${CONFIG_VERSION}`,
    }),
    exported_at: z.string().max(64).optional(),
    rules: ZRules.optional(),
    templates: ZTemplates.optional(),
    rule_settings: ZRuleSettingsUpdate.optional(),
    score_thresholds: ZThresholds.optional(),
    blocklist: ZBlocklist.optional(),
    allow_list: z
      .array(ZConfigAllowEntry)
      .max(CONFIG_MAX_ALLOW_ENTRIES, `may carry at most ${CONFIG_MAX_ALLOW_ENTRIES} entries`)
      .optional(),
    allowed_origins: ZAllowedOriginsInput.shape.origins.optional(),
    settings: ZConfigSettings.optional(),
    webhook_endpoints: z
      .array(ZConfigEndpoint)
      .max(CONFIG_MAX_ENDPOINTS, `may carry at most ${CONFIG_MAX_ENDPOINTS} endpoints`)
      .optional(),
    security: ZSecuritySettings.optional(),
    retention: ZConfigRetention.optional(),
  }),
);
export type AccountConfigInput = z.input<typeof ZAccountConfigInput>;
export type AccountConfigImport = z.output<typeof ZAccountConfigInput>;

/** The document as an export writes it: every section. */
export const ZAccountConfig = z.object({
  warden_config: z.literal(CONFIG_VERSION),
  exported_at: z.string(),
  rules: ZRules,
  templates: ZTemplates,
  rule_settings: z.record(z.string(), z.record(z.string(), z.unknown())),
  score_thresholds: z.record(
    z.string(),
    z.object({ review: z.number().nullable(), block: z.number().nullable() }),
  ),
  blocklist: z.object({ countries: z.array(z.string()), email_providers: z.array(z.string()) }),
  allow_list: z.array(
    z.object({
      kind: z.string(),
      value: z.string(),
      note: z.string().nullable(),
      expires_at: z.string().nullable(),
    }),
  ),
  allowed_origins: z.array(z.string()),
  settings: z.object({
    app_name: z.string(),
    contact_email: z.string(),
    stripe_publishable: z.string(),
  }),
  webhook_endpoints: z.array(z.object({ url: z.string(), events: z.array(z.string()) })),
  security: ZSecuritySettings,
  retention: ZConfigRetentionExport,
});
export type AccountConfig = z.infer<typeof ZAccountConfig>;

export const CONFIG_SECTIONS = [
  "rules",
  "templates",
  "rule_settings",
  "score_thresholds",
  "blocklist",
  "allow_list",
  "allowed_origins",
  "settings",
  "webhook_endpoints",
  "security",
  "retention",
] as const;
export type ConfigSection = (typeof CONFIG_SECTIONS)[number];

/** What an import changes (or changed), per section: one line a change; none: unchanged. */
export type ConfigChanges = Record<ConfigSection, string[]>;

export const ZConfigChanges = z.object(
  Object.fromEntries(CONFIG_SECTIONS.map((s) => [s, z.array(z.string())])) as Record<
    ConfigSection,
    z.ZodArray<z.ZodString>
  >,
);

/** The answer to an import: what changed, and each new webhook endpoint's secret, shown once. */
export const ZConfigImported = z.object({
  changes: ZConfigChanges,
  webhook_secrets: z.array(z.object({ id: z.string(), url: z.string(), secret: z.string() })),
});
export type ConfigImported = z.infer<typeof ZConfigImported>;

/** Deleting the account: its name (or "delete") typed again, and the caller's password. */
export const ZAccountDelete = z.strictObject({
  confirm: z.string({ message: "must be a string" }).trim().min(1, "must not be empty").max(320),
  password: z.string({ message: "must be a string" }).min(1, "must not be empty").max(1024),
});
export type AccountDelete = z.infer<typeof ZAccountDelete>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** Keys of two records whose values differ, as "key: before → after" lines. */
function keyChanges(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys
    .filter((key) => !same(before[key], after[key]))
    .map((key) => `${key}: ${show(before[key] ?? "none")} → ${show(after[key] ?? "none")}`);
}

/** Added and removed items of a list. */
function listChanges(before: readonly string[], after: readonly string[], what: string): string[] {
  const had = new Set(before);
  const has = new Set(after);
  return [
    ...after.filter((x) => !had.has(x)).map((x) => `${what} added: ${x}`),
    ...before.filter((x) => !has.has(x)).map((x) => `${what} removed: ${x}`),
  ];
}

const instant = (at: string | null | undefined) => (at ? new Date(at).toISOString() : null);

const endpointKey = (e: { url: string; events: readonly string[] }) =>
  `${e.url} ${[...e.events].sort().join(",")}`;

/**
 * What importing `incoming` (as parsed) into an account whose export is `current` changes,
 * per section. Pure: the console shows it before the import, the import answers with it.
 * Allow entries are added or renewed (never removed); endpoints are added unless one with the
 * same URL and events exists; every other section present replaces the account's.
 */
export function configChanges(
  current: AccountConfig,
  incoming: AccountConfigImport,
): ConfigChanges {
  const changes = Object.fromEntries(
    CONFIG_SECTIONS.map((s) => [s, []]),
  ) as unknown as ConfigChanges;
  const record = (section: ConfigSection) =>
    incoming[section] === undefined
      ? []
      : keyChanges(
          current[section] as Record<string, unknown>,
          incoming[section] as Record<string, unknown>,
        );
  for (const section of [
    "rules",
    "templates",
    "rule_settings",
    "score_thresholds",
    "settings",
    "security",
  ] as const) {
    changes[section] = record(section);
  }
  if (incoming.retention) {
    // Kinds the file leaves out are kept.
    const named = Object.keys(incoming.retention) as (keyof AccountConfig["retention"])[];
    const before = Object.fromEntries(named.map((kind) => [kind, current.retention[kind]]));
    changes.retention = keyChanges(before, incoming.retention).map((line) =>
      line.replaceAll("none", "default"),
    );
  }
  if (incoming.blocklist) {
    changes.blocklist = [
      ...listChanges(current.blocklist.countries, incoming.blocklist.countries, "country"),
      ...listChanges(
        current.blocklist.email_providers,
        incoming.blocklist.email_providers,
        "email provider",
      ),
    ];
  }
  if (incoming.allowed_origins) {
    changes.allowed_origins = listChanges(
      current.allowed_origins,
      [...new Set(incoming.allowed_origins)],
      "origin",
    );
  }
  if (incoming.allow_list) {
    const had = new Map(current.allow_list.map((e) => [`${e.kind}:${e.value}`, e]));
    for (const entry of incoming.allow_list) {
      const key = `${entry.kind}:${entry.value}`;
      const before = had.get(key);
      const after = { note: entry.note || null, expires_at: instant(entry.expires_at) };
      if (!before) changes.allow_list.push(`added ${key}`);
      else if (!same({ note: before.note, expires_at: instant(before.expires_at) }, after)) {
        changes.allow_list.push(`renewed ${key}`);
      }
    }
  }
  if (incoming.webhook_endpoints) {
    const had = new Set(current.webhook_endpoints.map(endpointKey));
    for (const endpoint of incoming.webhook_endpoints) {
      const key = endpointKey(endpoint);
      if (had.has(key)) continue;
      had.add(key);
      changes.webhook_endpoints.push(`added ${endpoint.url} (${endpoint.events.join(", ")})`);
    }
  }
  return changes;
}

/** What the deletion says, for the console, the server and the tests alike. */
export const ACCOUNT_DELETE_TEXT = {
  confirmWrong: 'Type the account\'s name, or the word "delete", to confirm.',
  deleted: "Your Warden account was deleted, with all its data.",
  gone: "This account no longer exists.",
} as const;
