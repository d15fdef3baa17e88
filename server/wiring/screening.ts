/**
 * Wiring: screening. API keys, the browser collector, the screening API and its list (and the
 * dashboard's decisions per minute), and backtests (the rules tried on stored history: in a
 * process of their own on PostgreSQL).
 */
import type { Metrics } from "../lib/metrics.ts";
import { createApiKeysRepository } from "../modules/api-keys/api-keys.repository.ts";
import { createApiKeysService } from "../modules/api-keys/api-keys.service.ts";
import { createKeyTags } from "../modules/api-keys/key-tag.ts";
import { createBacktestRepository } from "../modules/backtest/backtest.repository.ts";
import { createBacktestService } from "../modules/backtest/backtest.service.ts";
import { backtestInChildProcess } from "../modules/backtest/backtest-child.ts";
import { createRollups } from "../modules/baselines/rollups.ts";
import { createCollectorService, TOKENS_PER_KEY } from "../modules/collector/collector.service.ts";
import { createCollectorTokensRepository } from "../modules/collector/collector-tokens.repository.ts";
import { createPerMinuteService } from "../modules/live/per-minute.service.ts";
import { createLabelVerdicts } from "../modules/scoring/label-verdicts.ts";
import { createTrainingRepository } from "../modules/scoring/training.repository.ts";
import { warmFeatures } from "../modules/screening/features/index.ts";
import { createScreeningRepository } from "../modules/screening/screening.repository.ts";
import { createScreeningService } from "../modules/screening/screening.service.ts";
import { createScreeningBatches } from "../modules/screening/screening-batches.ts";
import { createScreeningHistoryService } from "../modules/screening/screening-history.service.ts";
import { createScreeningsApi } from "../modules/screening/screenings-api.ts";
import type { DecisionServices } from "./decisions.ts";
import type { ServiceDeps } from "./deps.ts";
import type { PolicyServices } from "./policy.ts";

export function wireScreening(
  deps: ServiceDeps,
  {
    policy,
    origins,
    events,
    digestKeyOf,
    live,
    metrics,
  }: Pick<PolicyServices, "policy" | "origins"> &
    Pick<DecisionServices, "events" | "digestKeyOf" | "live"> & { metrics: Metrics },
) {
  const { prisma, changes, encryptor, log, now } = deps;
  // The account's baseline (issue 45): every committed screening added in memory, stored every
  // few seconds off the screening's path.
  const rollups = createRollups({ sql: deps.sql, log });
  const screeningRepo = createScreeningRepository(prisma, deps.screeningSql);
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
    repo: createCollectorTokensRepository(prisma),
    apiKeys,
    policy,
    origins,
    now,
    perIpPerMinute: deps.collectPerIpPerMinute ?? 60,
    tokensPerKey: deps.collectTokensPerKey ?? TOKENS_PER_KEY,
  });
  return {
    screeningRepo,
    rollups,
    apiKeys,
    collector,
    screening: createScreeningService({
      // Each batch stores its screenings' decision events in the same statement.
      batches: createScreeningBatches(
        screeningRepo,
        metrics.screeningBatch,
        events.screening,
        events.screeningStored,
        (row) => {
          live.changed(row.accountId, "screenings");
          rollups.add(row);
        },
      ),
      policy,
      now,
      collector,
      digestKeyOf,
      observe: metrics.screening,
    }),
    screeningHistory: createScreeningHistoryService({ repo: screeningRepo, now }),
    /** GET /api/v1/screenings: the screenings for scripts, filtered by label too. */
    screeningsApi: createScreeningsApi(prisma),
    /** The dashboard's decisions per minute over the last hour. */
    perMinute: createPerMinuteService({ repo: screeningRepo, now }),
    backtest: createBacktestService({
      repo: createBacktestRepository(deps.sql),
      policy,
      digestKeyOf,
      now,
      // The one count of labels: the screenings the risk score's fit learns from.
      truths: createLabelVerdicts({ training: createTrainingRepository(prisma), now }).truths,
      log,
      runJob: deps.databaseUrl ? backtestInChildProcess(deps.databaseUrl) : undefined,
      // In-process (embedded), a job holds the server's own thread between batches: one at once.
      maxRunning: deps.databaseUrl ? 2 : 1,
    }),
  };
}
