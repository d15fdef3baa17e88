/**
 * The merchant's own account as a whole (Settings → Account): its configuration exported as
 * one JSON document another Warden can import, that import (validated whole, then written in
 * one transaction), and deleting the account with all its data. The sections are read through
 * the services that own them, so the export's shapes are the ones their PUTs take; the import
 * checks each section as its PUT does (the same zod schemas, an allow entry's expiry in the
 * future, a webhook URL Warden may call) before anything is written.
 */
import { randomBytes } from "node:crypto";
import { MESSAGES } from "../../../shared/messages.ts";
import {
  ACCOUNT_DELETE_TEXT,
  type AccountConfig,
  type AccountConfigImport,
  type AccountDelete,
  CONFIG_SECTIONS,
  CONFIG_VERSION,
  type ConfigImported,
  ZAccountConfigInput,
  ZAccountDelete,
} from "../../../shared/schemas/account-config.ts";
import type { Blocklist } from "../../../shared/schemas/blocklist.ts";
import {
  describeChanges,
  type ImportPreview,
  importPreview,
} from "../../../shared/schemas/import-preview.ts";
import type { RuleSettingsUpdate } from "../../../shared/schemas/rule-settings.ts";
import type { Rules } from "../../../shared/schemas/rules.ts";
import type { SettingsView } from "../../../shared/schemas/settings.ts";
import type { SecuritySettings } from "../../../shared/schemas/team.ts";
import type { Templates } from "../../../shared/schemas/templates.ts";
import type { WebhookEndpointView } from "../../../shared/schemas/webhooks.ts";
import type { Thresholds } from "../../../shared/score/weights.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Caller } from "../../lib/caller.ts";
import type { ThrottleService } from "../throttle/throttle.service.ts";
import { TWO_FACTOR_LIMITS } from "../two-factor/two-factor.service.ts";
import type { AccountDataRepository, ConfigWrite } from "./account-data.repository.ts";

type Deps = {
  repo: AccountDataRepository;
  rules: { get(accountId: string): Promise<Rules> };
  templates: { get(accountId: string): Promise<Templates> };
  ruleSettings: { overrides(accountId: string): Promise<RuleSettingsUpdate> };
  thresholds(accountId: string): Promise<Thresholds>;
  blocklist: { get(accountId: string): Promise<Blocklist> };
  origins: { allowed(accountId: string): Promise<string[]> };
  settings: { get(accountId: string): Promise<SettingsView> };
  webhooks: { listEndpoints(accountId: string): Promise<WebhookEndpointView[]> };
  security: { get(accountId: string): Promise<SecuritySettings> };
  throttle: Pick<ThrottleService, "attempt" | "clear">;
  verifyPassword(hash: string, password: string): Promise<boolean>;
  /** Why Warden may not call this webhook URL (webhooks' own check), or null. */
  endpointProblem(url: string): Promise<string | null>;
  /** Seals a webhook signing secret as the webhooks service opens it. */
  sealWebhookSecret(accountId: string, secret: string): string;
  /** Tells every instance the account's policy, settings and endpoints changed (or are gone). */
  announce(accountId: string): void;
  maxEndpoints: number;
  now: () => Date;
};

/** A 400 on one field of the document or the form, as the PUTs answer. */
function invalid(path: string, message: string): AppError {
  return new AppError("BAD_REQUEST", `${path}: ${message}`, { issues: [{ path, message }] });
}

const requireUser = (caller: Caller) => {
  if (!caller.userId) throw new AppError("UNAUTHORIZED", MESSAGES.signInRequired);
  return caller.userId;
};

/** The document's sections as the repository writes them. */
function writeOf(doc: AccountConfigImport): Omit<ConfigWrite, "endpoints"> {
  return {
    rules: doc.rules as Prisma.InputJsonObject | undefined,
    templates: doc.templates as Prisma.InputJsonObject | undefined,
    ruleOverrides: doc.rule_settings as Prisma.InputJsonObject | undefined,
    thresholds: doc.score_thresholds as Prisma.InputJsonObject | undefined,
    blocklist: doc.blocklist && {
      countries: doc.blocklist.countries,
      emailProviders: doc.blocklist.email_providers,
    },
    allowEntries: doc.allow_list?.map((entry) => ({
      kind: entry.kind,
      value: entry.value,
      note: entry.note || null,
      expiresAt: entry.expires_at ? new Date(entry.expires_at) : null,
    })),
    origins: doc.allowed_origins && [...new Set(doc.allowed_origins)],
    settings: doc.settings && {
      appName: doc.settings.app_name,
      contactEmail: doc.settings.contact_email,
      stripePublishable: doc.settings.stripe_publishable,
    },
    security: doc.security && {
      requireTwoFactor: doc.security.require_two_factor,
      auditRetentionDays: doc.security.audit_retention_days,
    },
    retention: doc.retention && {
      screeningRetentionDays: doc.retention.screenings,
      collectorRetentionDays: doc.retention.collector_tokens,
      identityRetentionDays: doc.retention.identities,
      webhookDeliveryRetentionDays: doc.retention.webhook_deliveries,
      chargePersonalRetentionDays: doc.retention.charges_personal,
    },
  };
}

export function createAccountDataService(deps: Deps) {
  const { repo, now } = deps;

  async function exportConfig(accountId: string): Promise<AccountConfig> {
    const [rules, templates, overrides, thresholds, blocklist, origins, settings, endpoints] =
      await Promise.all([
        deps.rules.get(accountId),
        deps.templates.get(accountId),
        deps.ruleSettings.overrides(accountId),
        deps.thresholds(accountId),
        deps.blocklist.get(accountId),
        deps.origins.allowed(accountId),
        deps.settings.get(accountId),
        deps.webhooks.listEndpoints(accountId),
      ]);
    const [security, retention, allow] = await Promise.all([
      deps.security.get(accountId),
      repo.retention(accountId),
      repo.allowEntries(accountId, now()),
    ]);
    if (!retention) throw new AppError("NOT_FOUND", ACCOUNT_DELETE_TEXT.gone);
    return {
      warden_config: CONFIG_VERSION,
      exported_at: now().toISOString(),
      rules,
      templates,
      rule_settings: overrides as AccountConfig["rule_settings"],
      score_thresholds: thresholds as AccountConfig["score_thresholds"],
      blocklist,
      allow_list: allow.map((entry) => ({
        kind: entry.kind,
        value: entry.value,
        note: entry.note,
        expires_at: entry.expiresAt?.toISOString() ?? null,
      })),
      allowed_origins: origins,
      settings: {
        app_name: settings.app_name,
        contact_email: settings.contact_email,
        stripe_publishable: settings.stripe_publishable,
      },
      webhook_endpoints: endpoints.map((e) => ({ url: e.url, events: e.events })),
      security,
      retention: {
        screenings: retention.screeningRetentionDays,
        collector_tokens: retention.collectorRetentionDays,
        identities: retention.identityRetentionDays,
        webhook_deliveries: retention.webhookDeliveryRetentionDays,
        charges_personal: retention.chargePersonalRetentionDays,
      },
    };
  }

  /** The checks the PUTs make beyond their schemas, per entry of the document. */
  async function checkBeyondSchemas(doc: AccountConfigImport): Promise<void> {
    const at = now();
    for (const [i, entry] of (doc.allow_list ?? []).entries()) {
      if (entry.expires_at && new Date(entry.expires_at) <= at) {
        throw invalid(`allow_list.${i}.expires_at`, "must be in the future");
      }
    }
    for (const [i, endpoint] of (doc.webhook_endpoints ?? []).entries()) {
      const problem = await deps.endpointProblem(endpoint.url);
      if (problem) throw invalid(`webhook_endpoints.${i}.url`, problem);
    }
  }

  return {
    exportConfig,

    /**
     * The sections of the account's configuration that `doc` carries, as they stand: an
     * import's audit event keeps them before (what it replaces) and after (what it wrote),
     * shaped as the export shapes them, so without a secret. Sections a document leaves out
     * are not touched by its import, and not in its event.
     */
    async sectionsOf(accountId: string, doc: unknown): Promise<Partial<AccountConfig>> {
      const config = await exportConfig(accountId);
      const carried = doc && typeof doc === "object" ? CONFIG_SECTIONS.filter((s) => s in doc) : [];
      return Object.fromEntries(carried.map((section) => [section, config[section]]));
    },

    /**
     * What importing the document would do, nothing written: every change in words, and what
     * the importer must know first (a second factor to set up at once, members who will have
     * to, data a shorter retention deletes, endpoints that start receiving events). Validated
     * as the import validates it, so a file the import refuses is refused here the same way.
     */
    async previewImport(
      caller: Caller,
      raw: unknown,
      session: { twoFactor: boolean },
    ): Promise<ImportPreview> {
      const doc = ZAccountConfigInput.parse(raw);
      await checkBeyondSchemas(doc);
      const [current, others] = await Promise.all([
        exportConfig(caller.accountId),
        repo.othersWithoutTwoFactor(caller.accountId, caller.userId),
      ]);
      return importPreview(current, doc, {
        twoFactor: session.twoFactor,
        othersWithoutTwoFactor: others,
      });
    },

    /**
     * Validates the whole document, then writes every section it carries in one transaction;
     * the answer says what changed per section and shows each new endpoint's secret once.
     */
    async importConfig(caller: Caller, raw: unknown): Promise<ConfigImported> {
      const doc = ZAccountConfigInput.parse(raw);
      await checkBeyondSchemas(doc);
      const { accountId } = caller;
      const changes = describeChanges(await exportConfig(accountId), doc);
      const endpoints = (doc.webhook_endpoints ?? []).map(({ url, events }) => {
        const secret = `whsec_${randomBytes(24).toString("base64url")}`;
        return { url, events, secret, secretCipher: deps.sealWebhookSecret(accountId, secret) };
      });
      const result = await repo.apply(
        accountId,
        { ...writeOf(doc), endpoints },
        { at: now(), addedBy: caller.email ?? "import", maxEndpoints: deps.maxEndpoints },
      );
      if (result === "gone") throw new AppError("NOT_FOUND", ACCOUNT_DELETE_TEXT.gone);
      if (result === "tooManyEndpoints") {
        throw invalid(
          "webhook_endpoints",
          `an account can have at most ${deps.maxEndpoints} webhook endpoints`,
        );
      }
      deps.announce(accountId);
      return { changes, webhook_secrets: result.created };
    },

    /**
     * Deletes the caller's account (owners only, transport/access.ts) once its name (or the
     * word "delete") and the caller's password are typed again; the password is checked under
     * the same limit as the other password checks of a signed-in session. Ends the caller's
     * sessions. Stripe is not called.
     */
    async deleteAccount(caller: Caller, raw: AccountDelete): Promise<void> {
      const input = ZAccountDelete.parse(raw);
      const userId = requireUser(caller);
      const naming = await repo.naming(caller.accountId);
      if (!naming) throw new AppError("NOT_FOUND", ACCOUNT_DELETE_TEXT.gone);
      // Whatever the account is called where the owner reads it (account-name.ts), or "delete".
      const names = [naming.name, naming.settings?.appName, naming.members[0]?.user.email, "delete"]
        .filter((name): name is string => Boolean(name))
        .map((name) => name.trim().toLowerCase());
      if (!names.includes(input.confirm.toLowerCase())) {
        throw invalid("confirm", ACCOUNT_DELETE_TEXT.confirmWrong);
      }
      const key = `account-delete-password:${userId}`;
      await deps.throttle.attempt(key, TWO_FACTOR_LIMITS.passwordPerUser);
      const hash = await repo.passwordHash(userId);
      if (!hash || !(await deps.verifyPassword(hash, input.password))) {
        throw invalid("password", MESSAGES.currentPasswordWrong);
      }
      await deps.throttle.clear(key);
      if (!(await repo.deleteAccount(caller.accountId, userId))) {
        throw new AppError("NOT_FOUND", ACCOUNT_DELETE_TEXT.gone);
      }
      deps.announce(caller.accountId);
    },
  };
}

export type AccountDataService = ReturnType<typeof createAccountDataService>;
