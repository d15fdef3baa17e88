/**
 * Wires repositories and services once per app; transports receive the result. Nothing else
 * happens here: no queries, no Stripe calls, no policy logic. Each domain's wiring is in
 * server/wiring/, in the order they depend on each other: policy, accounts, decisions (webhooks,
 * labels, review), Stripe, screening.
 */
import { createMetrics } from "./lib/metrics.ts";
import { createHealthRepository } from "./modules/health/health.repository.ts";
import { createHousekeepingService } from "./modules/housekeeping/housekeeping.service.ts";
import { createStripeActionsRepository } from "./modules/stripe/actions/stripe-actions.repository.ts";
import { createTransactionsRepository } from "./modules/transactions/transactions.repository.ts";
import { createTransactionsService } from "./modules/transactions/transactions.service.ts";
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
  const decisions = wireDecisions(deps, { ...policy, mail: accounts.outbox });
  const actionsRepo = createStripeActionsRepository(prisma);
  const metrics = createMetrics({
    actionsByStatus: () => actionsRepo.countByStatus(),
    poolStats: deps.poolStats,
  });
  const stripe = wireStripe(deps, { ...policy, ...decisions, actionsRepo, metrics });
  const { screeningRepo, ...screening } = wireScreening(deps, { ...policy, ...decisions, metrics });
  const { events: _events, digestKeyOf: _digestKeyOf, ...decided } = decisions;

  return {
    ...accounts,
    ...policy,
    ...decided,
    ...stripe,
    ...screening,
    metrics,
    transactions: createTransactionsService(createTransactionsRepository(prisma), now),
    housekeeping: createHousekeepingService({
      auth: accounts.auth,
      throttle: accounts.throttle,
      screenings: screeningRepo,
      signalTokens: screening.collector,
      webhooks: decisions.webhooks,
      retentionDays: deps.screening.retentionDays,
      webhookRetentionDays: deps.webhookDeliveryRetentionDays,
      now,
    }),
    health: createHealthRepository(prisma),
  };
}

export type Services = ReturnType<typeof createServices>;
