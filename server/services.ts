/** Wires repositories and services once per app; transports receive this object. */
import type { PrismaClient } from "./db/generated/client.ts";
import type { Encryptor } from "./lib/encryption.ts";
import type { Mailer } from "./lib/mailer.ts";
import type { StripeClientFactory } from "./lib/stripe-client.ts";
import { createAuthRepository } from "./modules/auth/auth.repository.ts";
import { createAuthService } from "./modules/auth/auth.service.ts";
import { createSessionService } from "./modules/auth/session.service.ts";
import { createBlocklistRepository } from "./modules/blocklist/blocklist.repository.ts";
import { createBlocklistService } from "./modules/blocklist/blocklist.service.ts";
import { createOutboxRepository } from "./modules/outbox/outbox.repository.ts";
import { createOutboxService } from "./modules/outbox/outbox.service.ts";
import { createRulesRepository } from "./modules/rules/rules.repository.ts";
import { createRulesService } from "./modules/rules/rules.service.ts";
import { createSettingsRepository } from "./modules/settings/settings.repository.ts";
import { createSettingsService } from "./modules/settings/settings.service.ts";
import { createImportJobsRepository } from "./modules/stripe/import-jobs.repository.ts";
import { createStripeActionsService } from "./modules/stripe/stripe-actions.service.ts";
import { createStripeConnectService } from "./modules/stripe/stripe-connect.service.ts";
import { createStripeEventsRepository } from "./modules/stripe/stripe-events.repository.ts";
import { createStripeEventsService } from "./modules/stripe/stripe-events.service.ts";
import { createTemplatesRepository } from "./modules/templates/templates.repository.ts";
import { createTemplatesService } from "./modules/templates/templates.service.ts";
import { createThrottleRepository } from "./modules/throttle/throttle.repository.ts";
import { createThrottleService } from "./modules/throttle/throttle.service.ts";
import { createTransactionsRepository } from "./modules/transactions/transactions.repository.ts";
import { createTransactionsService } from "./modules/transactions/transactions.service.ts";
import { createWaitlistRepository } from "./modules/waitlist/waitlist.repository.ts";
import { createWaitlistService } from "./modules/waitlist/waitlist.service.ts";

export type ServiceDeps = {
  prisma: PrismaClient;
  mailer: Mailer;
  publicUrl: string;
  socialUrl: string;
  /** Seals merchant secrets at rest (AES-256-GCM). */
  encryptor: Encryptor;
  /** Makes a Stripe client for a merchant's secret key (API base configurable for tests). */
  stripeFor: StripeClientFactory;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  now: () => Date;
};

export function createServices({
  prisma,
  mailer,
  publicUrl,
  socialUrl,
  encryptor,
  stripeFor,
  log,
  now,
}: ServiceDeps) {
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
  const rules = createRulesService(createRulesRepository(prisma));
  const blocklist = createBlocklistService(createBlocklistRepository(prisma));
  const stripeRepo = createStripeEventsRepository(prisma);
  const webhookUrlFor = async (accountId: string) =>
    `${publicUrl}/webhooks/stripe/${(await stripeRepo.findEndpointId(accountId)).webhookEndpointId}`;
  const settings = createSettingsService({
    repo: createSettingsRepository(prisma),
    encryptor,
    webhookUrlFor,
  });
  const secretKeyFor = async (accountId: string) =>
    (await settings.stripeCredentials(accountId)).secretKey;
  const stripeActions = createStripeActionsService({
    repo: stripeRepo,
    secretKeyFor,
    stripeFor,
    now,
    log,
  });
  const stripeEvents = createStripeEventsService({
    repo: stripeRepo,
    policyFor: async (accountId) => ({
      rules: await rules.get(accountId),
      blocklist: await blocklist.get(accountId),
    }),
    async fetchCharge(accountId, chargeId) {
      const secretKey = await secretKeyFor(accountId);
      if (!secretKey) return null;
      return stripeFor(secretKey)
        .charges.retrieve(chargeId)
        .catch(() => null);
    },
    onActionRecorded: () => stripeActions.kick(),
    now,
  });
  const stripeConnect = createStripeConnectService({
    settings,
    rules,
    blocklist,
    events: stripeEvents,
    jobs: createImportJobsRepository(prisma),
    stripeFor,
    publicUrl,
    webhookUrlFor,
    now,
    log,
  });
  return {
    sessions,
    throttle,
    outbox,
    auth,
    waitlist,
    rules,
    templates: createTemplatesService(createTemplatesRepository(prisma)),
    transactions: createTransactionsService(createTransactionsRepository(prisma), now),
    blocklist,
    settings,
    stripeEvents,
    stripeActions,
    stripeConnect,
    stripeWebhooks: {
      accountForEndpoint: (endpointId: string) => stripeRepo.findAccountByEndpoint(endpointId),
      async signingSecret(accountId: string): Promise<string | null> {
        return (await settings.stripeCredentials(accountId)).webhookSecret;
      },
    },
    /** Housekeeping: expired sessions and tokens, and stale rate-limit counters. */
    async purgeExpired() {
      const { sessions: expiredSessions, tokens } = await auth.purgeExpired();
      return { sessions: expiredSessions, tokens, rateLimits: await throttle.purgeStale() };
    },
    async ping(): Promise<void> {
      await prisma.$queryRaw`SELECT 1`;
    },
  };
}

export type Services = ReturnType<typeof createServices>;
