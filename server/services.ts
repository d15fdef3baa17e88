/**
 * Wires repositories and services once per app; transports receive the result. Nothing else
 * happens here: no queries, no Stripe calls, no policy logic.
 */
import { DEFAULT_RULES, type Rules, rulesFromStored } from "../shared/schemas/rules.ts";
import {
  DEFAULT_TEMPLATES,
  type Templates,
  templatesFromStored,
} from "../shared/schemas/templates.ts";
import type { ChangeFeed } from "./db/change-feed.ts";
import type { PrismaClient } from "./db/generated/client.ts";
import type { SqlRunner } from "./db/sql-runner.ts";
import type { Encryptor } from "./lib/encryption.ts";
import type { Mailer } from "./lib/mailer.ts";
import { createMetrics, type PoolStats } from "./lib/metrics.ts";
import type { StripeClientFactory } from "./lib/stripe-client.ts";
import { createAccountsRepository } from "./modules/accounts/accounts.repository.ts";
import { createAllowListRepository } from "./modules/allowlist/allowlist.repository.ts";
import { createAllowListService } from "./modules/allowlist/allowlist.service.ts";
import { createApiKeysRepository } from "./modules/api-keys/api-keys.repository.ts";
import { createApiKeysService } from "./modules/api-keys/api-keys.service.ts";
import { createKeyTags } from "./modules/api-keys/key-tag.ts";
import { createAuthRepository } from "./modules/auth/auth.repository.ts";
import { createAuthService } from "./modules/auth/auth.service.ts";
import { createSessionService } from "./modules/auth/session.service.ts";
import { createBacktestRepository } from "./modules/backtest/backtest.repository.ts";
import { createBacktestService } from "./modules/backtest/backtest.service.ts";
import { backtestInChildProcess } from "./modules/backtest/backtest-child.ts";
import { createBlocklistRepository } from "./modules/blocklist/blocklist.repository.ts";
import { createBlocklistService } from "./modules/blocklist/blocklist.service.ts";
import { createCollectorService, TOKENS_PER_KEY } from "./modules/collector/collector.service.ts";
import { createSignalTokensRepository } from "./modules/collector/signal-tokens.repository.ts";
import { createDemoService } from "./modules/demo/demo.service.ts";
import { createHealthRepository } from "./modules/health/health.repository.ts";
import { createHousekeepingService } from "./modules/housekeeping/housekeeping.service.ts";
import { createJsonSettingsRepository } from "./modules/json-settings/json-settings.repository.ts";
import { createJsonSettingsService } from "./modules/json-settings/json-settings.service.ts";
import { createLabelsRepository } from "./modules/labels/labels.repository.ts";
import { createLabelsService } from "./modules/labels/labels.service.ts";
import { createOutboxRepository } from "./modules/outbox/outbox.repository.ts";
import { createOutboxService } from "./modules/outbox/outbox.service.ts";
import { createPolicyService, policyChangeNotifier } from "./modules/policy/policy.service.ts";
import { createReviewRepository } from "./modules/review/review.repository.ts";
import { createReviewService } from "./modules/review/review.service.ts";
import { createRuleSettingsService } from "./modules/rule-settings/rule-settings.service.ts";
import { warmFeatures } from "./modules/screening/features/index.ts";
import { createScreeningRepository } from "./modules/screening/screening.repository.ts";
import { createScreeningService } from "./modules/screening/screening.service.ts";
import { createScreeningsService } from "./modules/screening/screenings.service.ts";
import { createSettingsRepository } from "./modules/settings/settings.repository.ts";
import {
  createSettingsService,
  settingsChangeNotifier,
} from "./modules/settings/settings.service.ts";
import { createStripeActionsRepository } from "./modules/stripe/actions/stripe-actions.repository.ts";
import { createStripeActionsService } from "./modules/stripe/actions/stripe-actions.service.ts";
import { createStripeConnectService } from "./modules/stripe/connect/stripe-connect.service.ts";
import { createImportJobsRepository } from "./modules/stripe/import/import-jobs.repository.ts";
import { createStripeImportService } from "./modules/stripe/import/stripe-import.service.ts";
import { createStripeEventsRepository } from "./modules/stripe/ingest/stripe-events.repository.ts";
import { createStripeIngestService } from "./modules/stripe/ingest/stripe-ingest.service.ts";
import {
  createStripeWebhooksService,
  createWebhookUrls,
} from "./modules/stripe/ingest/stripe-webhooks.service.ts";
import { createThrottleRepository } from "./modules/throttle/throttle.repository.ts";
import { createThrottleService } from "./modules/throttle/throttle.service.ts";
import { createTransactionsRepository } from "./modules/transactions/transactions.repository.ts";
import { createTransactionsService } from "./modules/transactions/transactions.service.ts";
import { createWaitlistRepository } from "./modules/waitlist/waitlist.repository.ts";
import { createWaitlistService } from "./modules/waitlist/waitlist.service.ts";
import { withDecisionEvents } from "./modules/webhooks/decision-events.ts";
import { createWebhookSender } from "./modules/webhooks/webhook-sender.ts";
import { createWebhooksRepository } from "./modules/webhooks/webhooks.repository.ts";
import { createWebhooksService } from "./modules/webhooks/webhooks.service.ts";

export type ServiceDeps = {
  prisma: PrismaClient;
  /** Plain SQL on the same database, for the screening hot path. */
  sql: SqlRunner;
  /** The PostgreSQL pool's connections, for the metrics (null when embedded). */
  poolStats: PoolStats;
  /** PostgreSQL's URL: backtest jobs then run in a process of their own (null: in-process). */
  databaseUrl: string | null;
  /** Announces settings changes to every instance (policy cache invalidation). */
  changes: ChangeFeed;
  mailer: Mailer;
  publicUrl: string;
  socialUrl: string;
  /** Seals merchant secrets at rest (AES-256-GCM). */
  encryptor: Encryptor;
  /** Makes a Stripe client for a merchant's secret key (API base configurable for tests). */
  stripeFor: StripeClientFactory;
  /** Screening: retention and the per-key rate limit. */
  screening: { retentionDays: number; ratePerMinute: number };
  /** Browser collects per publishable key and IP per minute (default 60). */
  collectPerIpPerMinute?: number;
  /** Decision webhooks may go to private addresses (self-hosted setups). */
  webhooksAllowPrivate?: boolean;
  /** Signal tokens kept per publishable key (default TOKENS_PER_KEY). */
  collectTokensPerKey?: number;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  now: () => Date;
};

export function createServices(deps: ServiceDeps) {
  const { prisma, changes, mailer, publicUrl, socialUrl, encryptor, stripeFor, log, now } = deps;
  const screeningRepo = createScreeningRepository(prisma, deps.sql);

  const authRepo = createAuthRepository(prisma);
  const sessions = createSessionService(authRepo, now);
  const throttle = createThrottleService(createThrottleRepository(prisma), now);
  // Account emails go through the durable outbox: requests never wait for SMTP.
  const outbox = createOutboxService({
    repo: createOutboxRepository(prisma),
    transport: mailer,
    now,
    log,
  });
  const auth = createAuthService({
    repo: authRepo,
    sessions,
    throttle,
    mailer: outbox,
    publicUrl,
    now,
  });
  const waitlist = createWaitlistService({
    repo: createWaitlistRepository(prisma),
    throttle,
    socialUrl,
    now,
  });

  const onPolicyChange = policyChangeNotifier(changes);
  const rules = createJsonSettingsService<Rules>({
    repo: createJsonSettingsRepository(prisma, "rules"),
    defaults: DEFAULT_RULES,
    fromStored: rulesFromStored,
    onChange: onPolicyChange,
  });
  const templates = createJsonSettingsService<Templates>({
    repo: createJsonSettingsRepository(prisma, "templates"),
    defaults: DEFAULT_TEMPLATES,
    fromStored: templatesFromStored,
    onChange: onPolicyChange,
  });
  const blocklist = createBlocklistService({
    repo: createBlocklistRepository(prisma),
    onChange: onPolicyChange,
  });
  const ruleSettings = createRuleSettingsService({
    repo: createJsonSettingsRepository(prisma, "ruleParameters"),
    rules,
    templates,
    onChange: onPolicyChange,
  });
  const allowList = createAllowListService({
    repo: createAllowListRepository(prisma),
    now,
    onChange: onPolicyChange,
  });
  const policy = createPolicyService({
    rules,
    templates,
    blocklist,
    ruleSettings,
    allowList,
    changes,
    now,
  });

  const apiKeys = createApiKeysService({
    repo: createApiKeysRepository(prisma),
    changes,
    now,
    tags: createKeyTags(encryptor.derive("api-key-tags")),
    ratePerMinute: deps.screening.ratePerMinute,
    log,
    onCreated: () => setImmediate(warmFeatures),
  });
  const collector = createCollectorService({
    repo: createSignalTokensRepository(prisma),
    apiKeys,
    policy,
    now,
    perIpPerMinute: deps.collectPerIpPerMinute ?? 60,
    tokensPerKey: deps.collectTokensPerKey ?? TOKENS_PER_KEY,
  });

  const actionsRepo = createStripeActionsRepository(prisma);
  const metrics = createMetrics({
    actionsByStatus: () => actionsRepo.countByStatus(),
    poolStats: deps.poolStats,
  });
  const stripeEvents = createStripeEventsRepository(deps.sql, metrics.ingestBatch);
  const webhookUrlFor = createWebhookUrls(stripeEvents, publicUrl);
  const stripeConnect = createStripeConnectService({ stripeFor });
  const settings = createSettingsService({
    repo: createSettingsRepository(prisma),
    encryptor,
    webhookUrlFor,
    connect: stripeConnect,
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
    onDone: (action, objectId) => events.ruleActionDone(action, objectId),
  });
  const allowPrivate = deps.webhooksAllowPrivate ?? false;
  const webhooks = createWebhooksService({
    repo: createWebhooksRepository(prisma),
    encryptor,
    send: createWebhookSender({ allowPrivate }),
    allowPrivate,
    now,
    log,
  });
  const events = withDecisionEvents(webhooks, log);
  const labels = createLabelsService({
    repo: createLabelsRepository(prisma),
    now,
    onLabel: events.labelCreated,
  });
  const review = createReviewService({
    repo: createReviewRepository(prisma),
    labels,
    now,
    onSettledMany: events.reviewsSettled,
    // "Always allow this user": the user id, else the email, goes on the allow list.
    onSettled: async (accountId, settled, { alwaysAllow, by }) => {
      events.reviewSettled(accountId, settled, by);
      const value = settled.userId ?? settled.email;
      if (!alwaysAllow || !value) return;
      const kind = settled.userId ? "user_id" : "email";
      await allowList.add(accountId, { kind, value, note: "approved in review" }, by);
    },
  });
  const stripeIngest = createStripeIngestService({
    repo: stripeEvents,
    policy,
    credentials: settings,
    stripeFor,
    onActionRecorded: () => stripeActions.kick(),
    onFraud: labels.fromStripe,
    now,
  });

  return {
    sessions,
    throttle,
    outbox,
    auth,
    accounts: createAccountsRepository(prisma),
    waitlist,
    rules,
    templates,
    ruleSettings,
    blocklist,
    policy,
    settings,
    transactions: createTransactionsService(createTransactionsRepository(prisma), now),
    stripeIngest,
    stripeActions,
    labels,
    review,
    allowList,
    webhooks,
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
    demo: createDemoService({ settings, rules, blocklist, webhookUrlFor, publicUrl }),
    apiKeys,
    collector,
    screening: events.screenings(
      createScreeningService({
        repo: screeningRepo,
        policy,
        now,
        signals: collector,
        observe: metrics.screening,
      }),
    ),
    metrics,
    screenings: createScreeningsService({ repo: screeningRepo, now }),
    housekeeping: createHousekeepingService({
      auth,
      throttle,
      screenings: screeningRepo,
      signalTokens: collector,
      retentionDays: deps.screening.retentionDays,
      now,
    }),
    health: createHealthRepository(prisma),
    backtest: createBacktestService({
      repo: createBacktestRepository(deps.sql),
      policy,
      now,
      log,
      runJob: deps.databaseUrl ? backtestInChildProcess(deps.databaseUrl) : undefined,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
