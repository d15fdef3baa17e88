/**
 * Wiring: the merchant's own account as a whole (export and import of its configuration,
 * deleting it). It reads each section through the service that owns it, checks a webhook URL
 * with the webhooks module's own check, and announces a change on every topic an account's
 * caches listen to.
 */

import type { SettingsView } from "../../shared/schemas/settings.ts";
import { TOPICS } from "../db/change-topics.ts";
import { verifyPassword } from "../lib/password.ts";
import { createAccountDataRepository } from "../modules/account-data/account-data.repository.ts";
import { createAccountDataService } from "../modules/account-data/account-data.service.ts";
import { endpointProblem } from "../modules/webhooks/ssrf.ts";
import type { wireAccounts } from "./accounts.ts";
import type { DecisionServices } from "./decisions.ts";
import type { ServiceDeps } from "./deps.ts";
import type { PolicyServices } from "./policy.ts";

export function wireAccountData(
  {
    prisma,
    changes,
    encryptor,
    webhooksAllowPrivate,
    webhookEndpointsPerAccount,
    now,
  }: ServiceDeps,
  services: PolicyServices &
    Pick<ReturnType<typeof wireAccounts>, "security" | "throttle"> &
    Pick<DecisionServices, "webhooks"> & {
      settings: { get(accountId: string): Promise<SettingsView> };
    },
) {
  return createAccountDataService({
    repo: createAccountDataRepository(prisma),
    rules: services.rules,
    templates: services.templates,
    ruleSettings: services.ruleSettings,
    thresholds: (accountId) => services.scoringRepo.thresholds(accountId),
    blocklist: services.blocklist,
    origins: services.origins,
    settings: services.settings,
    webhooks: services.webhooks,
    security: services.security,
    throttle: services.throttle,
    verifyPassword,
    endpointProblem: (url) => endpointProblem(url, webhooksAllowPrivate ?? false),
    // The webhooks service opens a signing secret with this associated data (its sealFor).
    sealWebhookSecret: (accountId, secret) => encryptor.seal(secret, `webhook-secret:${accountId}`),
    announce: (accountId) => {
      for (const topic of [TOPICS.policy, TOPICS.settings, TOPICS.webhooks, TOPICS.apiKeys]) {
        changes.publish({ topic, accountId });
      }
    },
    maxEndpoints: webhookEndpointsPerAccount ?? 20,
    now,
  });
}
