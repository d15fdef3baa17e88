/**
 * The account's data and what it keeps (docs/privacy.md): an end user's data rights in the
 * console, retention, the configuration's export and import, deleting the account, and the
 * audit log. REST under /api for scripts with a bearer token from POST /api/auth/login.
 */
import { z } from "zod";
import {
  CONFIG_MAX_BYTES,
  ZAccountConfig,
  ZAccountConfigInput,
  ZAccountDelete,
  ZConfigImported,
} from "../../../shared/schemas/account-config.ts";
import { ZAuditApiQuery, ZAuditListInput, ZAuditPage } from "../../../shared/schemas/audit.ts";
import {
  ZEndUserExport,
  ZEndUserSelector,
  ZErasurePreview,
  ZErasureResult,
} from "../../../shared/schemas/end-users.ts";
import { ZImportPreview } from "../../../shared/schemas/import-preview.ts";
import { ZRetentionSettings, ZRetentionView } from "../../../shared/schemas/retention.ts";
import { audits, op } from "../operation.ts";

const { snap, result } = audits;
const ZOk = z.object({ ok: z.literal(true) });

/** What an end user's export or erasure leaves in the audit log: no value it was asked about. */
export const endUserSummary = (output: {
  selectors?: unknown;
  counts?: unknown;
  erasure_id?: string;
  widened?: boolean;
}) => ({
  selectors: output?.selectors,
  counts: output?.counts,
  ...(output?.erasure_id ? { erasure_id: output.erasure_id } : {}),
  ...(output?.widened ? { widened: true } : {}),
});

/**
 * An end user's data rights in the console (decision 029): what an erasure would do,
 * everything held about the person, and the erasure itself (owners and admins).
 */
export const endUsers = {
  preview: op({
    need: "review",
    kind: "query",
    input: ZEndUserSelector,
    output: ZErasurePreview,
    handler: ({ services, caller }, input) => services.endUsers.preview(caller.accountId, input),
  }),
  export: op({
    need: "review",
    audit: result(endUserSummary),
    kind: "query",
    input: ZEndUserSelector,
    output: ZEndUserExport,
    handler: ({ services, caller }, input) => services.endUsers.export(caller.accountId, input),
  }),
  erase: op({
    need: "configure",
    audit: result(endUserSummary),
    kind: "mutation",
    input: ZEndUserSelector,
    output: ZErasureResult,
    handler: ({ services, caller }, input) => services.endUsers.erase(caller.accountId, input),
  }),
};

/** Each kind's days, defaults, limits and what a setting breaks; an owner changes any subset. */
export const retention = {
  get: op({
    need: "read",
    kind: "query",
    output: ZRetentionView,
    handler: ({ services, caller }) => services.retention.get(caller.accountId),
    rest: {
      method: "GET",
      path: "/retention",
      tag: "retention",
      summary:
        "How long each kind of personal data is kept: days, default, limits, and what the setting breaks among the rules' windows",
    },
  }),
  put: op({
    need: "own",
    audit: snap((s, a) => s.retention.get(a)),
    kind: "mutation",
    input: ZRetentionSettings,
    output: ZRetentionView,
    handler: ({ services, caller }, input) => services.retention.put(caller.accountId, input),
    rest: {
      method: "PUT",
      path: "/retention",
      tag: "retention",
      summary:
        "Set any subset of the kinds' retention in days (null: back to the instance's default); owners only",
      errors: [403],
      examples: { body: { screenings: 30, identities: null } },
    },
  }),
};

/** Settings → Account: export the configuration, import one (owners), delete the account. */
export const account = {
  exportConfig: op({
    need: "configure",
    audit: "event",
    kind: "query",
    output: ZAccountConfig,
    handler: ({ services, caller }) => services.accountData.exportConfig(caller.accountId),
    rest: {
      method: "GET",
      path: "/account/config",
      tag: "account",
      summary:
        "The account's configuration as one JSON document (rules, templates, rule settings, score thresholds, lists, allowed origins, settings and webhook endpoints without secrets, security, retention); owners and admins",
      errors: [403],
    },
  }),
  /** What an import would change and what to know first (nothing written): owners. */
  previewImport: op({
    need: "own",
    kind: "mutation",
    input: ZAccountConfigInput,
    output: ZImportPreview,
    handler: ({ services, caller, session }, input) =>
      services.accountData.previewImport(caller, input, session.user),
    rest: {
      method: "POST",
      path: "/account/config/preview",
      tag: "account",
      summary:
        "What importing a configuration document would change, per section in words, and warnings to read first (two-factor sign-in required, data a shorter retention deletes, new webhook endpoints); nothing is written; owners only",
      bodyLimit: CONFIG_MAX_BYTES,
      errors: [403, 404, 413],
      examples: {
        body: {
          warden_config: 1,
          security: { require_two_factor: true, audit_retention_days: 365 },
        },
      },
    },
  }),
  /** Every section in one transaction; each new webhook endpoint's secret is shown once. */
  importConfig: op({
    need: "own",
    // Before: the sections the file carries as they were; after: as imported (export-shaped).
    audit: snap((s, a, input: unknown) => s.accountData.sectionsOf(a, input)),
    kind: "mutation",
    input: ZAccountConfigInput,
    output: ZConfigImported,
    handler: ({ services, caller }, input) => services.accountData.importConfig(caller, input),
    rest: {
      method: "POST",
      path: "/account/config",
      tag: "account",
      summary:
        "Import a configuration document (owners only): validated whole, then every section it carries applied in one transaction; answers what changed per section, and each new webhook endpoint's signing secret once",
      bodyLimit: CONFIG_MAX_BYTES,
      errors: [403, 404, 413],
      examples: {
        body: { warden_config: 1, blocklist: { countries: ["KP"], email_providers: [] } },
      },
    },
  }),
  /** Deletes the account and all its data; this session ends (the console shows the login). */
  delete: op({
    need: "own",
    kind: "mutation",
    input: ZAccountDelete,
    output: ZOk,
    handler: async ({ services, caller, sessionCookie }, input) => {
      await services.accountData.deleteAccount(caller, input);
      sessionCookie.clear();
      return { ok: true as const };
    },
    rest: {
      method: "DELETE",
      path: "/account",
      tag: "account",
      summary:
        'Delete the account and all its data (owners only): type its name, or "delete", and your password; your sessions end',
      errors: [403, 404, 429],
      examples: { body: { confirm: "delete", password: "your password" } },
    },
  }),
};

/** The audit log: a page of the account's events, newest first, filtered (GET /api/audit.csv: all). */
export const audit = {
  list: op({
    need: "read",
    kind: "query",
    input: ZAuditListInput,
    output: ZAuditPage,
    handler: ({ services, caller }, input) => services.audit.page(caller.accountId, input),
    rest: {
      method: "GET",
      path: "/audit",
      tag: "audit",
      summary:
        "The account's audit log, newest first: who changed what, when, from which IP, with before and after (secrets masked); filter by action (a name, or a prefix ending with '.', comma-separated), actor, since and until",
      query: ZAuditApiQuery,
    },
  }),
};
