/**
 * Wires repositories and services once per app; transports receive the result. Nothing else
 * happens here: no queries, no Stripe calls, no policy logic. Each domain's wiring is in
 * server/wiring/, in the order they depend on each other: policy, accounts, decisions (webhooks,
 * labels, review), Stripe, screening.
 */
import { createMetrics } from "./lib/metrics.ts";
import { createAlertsRepository } from "./modules/alerts/alerts.repository.ts";
import { createAlertsService } from "./modules/alerts/alerts.service.ts";
import { createBaselinesRepository } from "./modules/baselines/baselines.repository.ts";
import { createHealthRepository } from "./modules/health/health.repository.ts";
import { createHousekeepingService } from "./modules/housekeeping/housekeeping.service.ts";
import { createEndUsersRepository } from "./modules/privacy/end-users.repository.ts";
import { createEndUsersService } from "./modules/privacy/end-users.service.ts";
import { createRetentionRepository } from "./modules/retention/retention.repository.ts";
import {
  createRetentionService,
  retentionDefaults,
} from "./modules/retention/retention.service.ts";
import { fitInThread } from "./modules/scoring/model-fit.thread.ts";
import { createModelsRepository } from "./modules/scoring/models.repository.ts";
import { createModelsService } from "./modules/scoring/models.service.ts";
import { createThresholdsRepository } from "./modules/scoring/thresholds.repository.ts";
import { createThresholdsService } from "./modules/scoring/thresholds.service.ts";
import { createTrainingRepository } from "./modules/scoring/training.repository.ts";
import { createStripeActionsRepository } from "./modules/stripe/actions/stripe-actions.repository.ts";
import { createTransactionsRepository } from "./modules/transactions/transactions.repository.ts";
import { createTransactionsService } from "./modules/transactions/transactions.service.ts";
import { endUserErasedEvent } from "./modules/webhooks/decision-events.ts";
import { createWebhookSender } from "./modules/webhooks/webhook-sender.ts";
import { wireAccountData } from "./wiring/account-data.ts";
import { wireAccounts } from "./wiring/accounts.ts";
import { wireDecisions } from "./wiring/decisions.ts";
import type { ServiceDeps } from "./wiring/deps.ts";
import { wirePolicy } from "./wiring/policy.ts";
import { wireScreening } from "./wiring/screening.ts";
import { wireStripe } from "./wiring/stripe.ts";

export type { ServiceDeps };

export function createServices(deps: ServiceDeps) {
  const { prisma, now } = deps;
  const policy = wirePolicy(deps);
  const accounts = wireAccounts(deps);
  const decisions = wireDecisions(deps, {
    ...policy,
    mail: accounts.outbox,
    sessions: accounts.sessions,
  });
  const actionsRepo = createStripeActionsRepository(prisma);
  const metrics = createMetrics({
    actionsByStatus: () => actionsRepo.countByStatus(),
    poolStats: deps.poolStats,
  });
  const stripe = wireStripe(deps, { ...policy, ...decisions, actionsRepo, metrics });
  const { screeningRepo, ...screening } = wireScreening(deps, { ...policy, ...decisions, metrics });
  const { events: _events, digestKeyOf: _digestKeyOf, ...decided } = decisions;
  const baselines = createBaselinesRepository(deps.sql);
  // Alerts a merchant sets (issue 45), on the baseline the screenings above keep.
  const alerts = createAlertsService({
    repo: createAlertsRepository(prisma),
    baselines,
    rollups: screening.rollups,
    encryptor: deps.encryptor,
    events: decisions.webhooks.outbox,
    mailKick: () => void accounts.outbox.flush().catch(() => {}),
    send: createWebhookSender({ allowPrivate: deps.webhooksAllowPrivate ?? false }),
    allowPrivate: deps.webhooksAllowPrivate ?? false,
    publicUrl: deps.publicUrl,
    now,
    log: deps.log,
    everyMs: deps.alertsEveryMs,
  });
  const retention = createRetentionService({
    repo: createRetentionRepository(prisma),
    ruleSettings: policy.ruleSettings,
    defaults: retentionDefaults({
      screenings: deps.screening.retentionDays,
      webhook_deliveries: deps.webhookDeliveryRetentionDays,
    }),
  });

  return {
    ...accounts,
    ...policy,
    ...decided,
    ...stripe,
    ...screening,
    metrics,
    alerts,
    transactions: createTransactionsService(createTransactionsRepository(prisma), now),
    housekeeping: createHousekeepingService({
      auth: accounts.auth,
      throttle: accounts.throttle,
      screenings: screeningRepo,
      collectorTokens: screening.collector,
      webhooks: decisions.webhooks,
      audit: accounts.audit,
      retention,
      baselines,
      retentionDays: deps.screening.retentionDays,
      webhookRetentionDays: deps.webhookDeliveryRetentionDays,
      now,
    }),
    retention,
    // An end user's export and erasure (decision 029): its event through the webhooks' outbox.
    endUsers: createEndUsersService({
      repo: createEndUsersRepository(prisma, decisions.webhooks.outbox),
      now,
      onChange: policy.onChange,
      eventOf: endUserErasedEvent,
      eventsStored: decisions.webhooks.outbox.kick,
    }),
    accountData: wireAccountData(deps, { ...policy, ...accounts, ...decisions, ...stripe }),
    health: createHealthRepository(prisma),
    scoreModels: createModelsService({
      models: createModelsRepository(prisma),
      training: createTrainingRepository(prisma),
      policy: policy.policy,
      onChange: policy.onChange,
      now,
      runFit: fitInThread,
    }),
    scoreThresholds: createThresholdsService({
      repo: policy.scoringRepo,
      store: createThresholdsRepository(deps.sql),
      templates: policy.templates,
      onChange: policy.onChange,
      now,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
