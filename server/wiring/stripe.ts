/**
 * Wiring: Stripe. The merchant's settings (keys, connect), webhook ingest with the rules,
 * the outbox of refunds and cancellations, history import, and the demo that drives them.
 */
import type { Metrics } from "../lib/metrics.ts";
import { createDemoRepository } from "../modules/demo/demo.repository.ts";
import { createDemoService } from "../modules/demo/demo.service.ts";
import { createSettingsRepository } from "../modules/settings/settings.repository.ts";
import {
  createSettingsService,
  settingsChangeNotifier,
} from "../modules/settings/settings.service.ts";
import type { StripeActionsRepository } from "../modules/stripe/actions/stripe-actions.repository.ts";
import { createStripeActionsService } from "../modules/stripe/actions/stripe-actions.service.ts";
import { createStripeConnectService } from "../modules/stripe/connect/stripe-connect.service.ts";
import { createImportJobsRepository } from "../modules/stripe/import/import-jobs.repository.ts";
import { createStripeImportService } from "../modules/stripe/import/stripe-import.service.ts";
import { createStripeEventsRepository } from "../modules/stripe/ingest/stripe-events.repository.ts";
import { createStripeIngestService } from "../modules/stripe/ingest/stripe-ingest.service.ts";
import {
  createStripeWebhooksService,
  createWebhookUrls,
} from "../modules/stripe/ingest/stripe-webhooks.service.ts";
import type { DecisionServices } from "./decisions.ts";
import type { ServiceDeps } from "./deps.ts";
import type { PolicyServices } from "./policy.ts";

export function wireStripe(
  deps: ServiceDeps,
  {
    policy,
    rules,
    blocklist,
    labels,
    events,
    live,
    actionsRepo,
    metrics,
  }: Pick<PolicyServices, "policy" | "rules" | "blocklist"> &
    Pick<DecisionServices, "labels" | "events" | "live"> & {
      actionsRepo: StripeActionsRepository;
      metrics: Metrics;
    },
) {
  const { prisma, changes, encryptor, stripeFor, publicUrl, log, now } = deps;
  const stripeEvents = createStripeEventsRepository(deps.sql, metrics.ingestBatch);
  const webhookUrlFor = createWebhookUrls(stripeEvents, publicUrl);
  const settings = createSettingsService({
    repo: createSettingsRepository(prisma),
    encryptor,
    webhookUrlFor,
    connect: createStripeConnectService({ stripeFor }),
    publicUrl,
    onSecretKeySaved: (accountId) => stripeActions.resume(accountId),
    onChange: settingsChangeNotifier(changes),
  });
  const stripeActions = createStripeActionsService({
    repo: actionsRepo,
    credentials: settings,
    stripeFor,
    now,
    log,
    // An action done stores its decision events in the transaction that records it.
    ...events.ruleAction,
  });
  const stripeIngest = createStripeIngestService({
    repo: stripeEvents,
    policy,
    credentials: settings,
    stripeFor,
    onActionRecorded: () => stripeActions.kick(),
    onFraud: labels.fromStripe,
    onChargeChanged: (accountId) => live.changed(accountId, "charges"),
    now,
  });
  return {
    settings,
    stripeIngest,
    stripeActions,
    stripeWebhooks: createStripeWebhooksService({
      repo: stripeEvents,
      credentials: settings,
      ingest: stripeIngest,
      changes,
      now,
    }),
    stripeImport: createStripeImportService({
      jobs: createImportJobsRepository(prisma),
      credentials: settings,
      ingest: stripeIngest,
      stripeFor,
      now,
      log,
    }),
    demo: createDemoService({
      repo: createDemoRepository(prisma),
      settings,
      rules,
      blocklist,
      webhookUrlFor,
      publicUrl,
      now,
    }),
  };
}
