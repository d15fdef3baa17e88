/**
 * Housekeeping: expired sessions and tokens, stale rate-limit counters, and each account's
 * data past its retention (Settings → Data retention; shared/privacy/retention.ts), the
 * instance's default where the account set none: screenings, the screenings' counting rows
 * (request events' after a day), the browser collector's tokens after they expired,
 * decision webhook deliveries that were delivered or given up on, audit events, charges'
 * personal fields and labels' notes (cleared; the charge and the label stay), and allow-list
 * entries that ended longer ago than screenings are kept. Each is deleted (or cleared) in batches of at
 * most `batch` rows per statement, so no statement holds its locks long, until none is left
 * or the run's time budget is spent (the rest go on the next run). Times are the injected
 * clock's, as the rows were written by it; the audit log's by the database's, as its
 * append-only trigger measures them.
 */
import { RETENTION } from "../../../shared/privacy/retention.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { AuthService } from "../auth/auth.service.ts";
import type { BaselinesRepository } from "../baselines/baselines.repository.ts";
import type { CollectorService } from "../collector/collector.service.ts";
import type { RetentionService } from "../retention/retention.service.ts";
import type { ScreeningRepository } from "../screening/screening.repository.ts";
import type { ThrottleService } from "../throttle/throttle.service.ts";
import type { WebhooksService } from "../webhooks/webhooks.service.ts";

const DAY_MS = 86_400_000;
/** The counting rows' default retention: the longest window a rule looks back. */
const LONGEST_WINDOW_DAYS = RETENTION.identities.default_days;
/** The default of WEBHOOK_DELIVERY_RETENTION_DAYS. */
const WEBHOOK_RETENTION_DAYS = 30;
/** Rows deleted or cleared per statement. */
const BATCH = 1000;
/** A run stops starting batches after this long (ms); the next run goes on. */
const BUDGET_MS = 30_000;

export function createHousekeepingService(deps: {
  auth: Pick<AuthService, "purgeExpired">;
  throttle: Pick<ThrottleService, "purgeStale">;
  screenings: Pick<ScreeningRepository, "purgeScreenings" | "purgeIdentities">;
  collectorTokens?: Pick<CollectorService, "purgeExpired">;
  webhooks?: Pick<WebhooksService, "purgeSettled">;
  audit?: Pick<AuditService, "prune">;
  /** Charges' personal fields, labels' notes and ended allow-list entries. */
  retention?: Pick<
    RetentionService,
    "clearChargePersonal" | "clearLabelNotes" | "purgeEndedAllowEntries"
  >;
  /** The baseline's buckets past their keeping (two days of 5-minute ones, five weeks of hours). */
  baselines?: Pick<BaselinesRepository, "purge" | "compactTail" | "vacuum">;
  /** Days a screening is kept where its account set none (SCREENING_RETENTION_DAYS). */
  retentionDays: number;
  /** Days a delivered or failed webhook delivery is kept where its account set none. */
  webhookRetentionDays?: number;
  now: () => Date;
}) {
  return {
    /**
     * One run; `batch` (rows per statement) and `budgetMs` (when to stop starting batches)
     * are for tests. The answer counts what each step removed or cleared.
     */
    async purgeExpired(options: { batch?: number; budgetMs?: number } = {}) {
      const batch = options.batch ?? BATCH;
      const deadline = performance.now() + (options.budgetMs ?? BUDGET_MS);
      const more = () => performance.now() < deadline;
      /** Runs one step's batches until a short one (none left) or the budget is spent. */
      const drain = async (step: (batch: number) => Promise<number>) => {
        let total = 0;
        for (;;) {
          const done = await step(batch);
          total += done;
          if (done < batch || !more()) return total;
        }
      };
      const { sessions, tokens } = await deps.auth.purgeExpired();
      const now = deps.now();
      const screenings = await drain((n) =>
        deps.screenings.purgeScreenings(now, deps.retentionDays, n),
      );
      const requests = new Date(now.getTime() - DAY_MS);
      const identities = await drain((n) =>
        deps.screenings.purgeIdentities(now, LONGEST_WINDOW_DAYS, requests, n),
      );
      const collector = deps.collectorTokens;
      const collectorTokens = collector
        ? await drain((n) =>
            collector.purgeExpired(now, RETENTION.collector_tokens.default_days, n),
          )
        : 0;
      const webhooks = deps.webhooks;
      const webhookDays = deps.webhookRetentionDays ?? WEBHOOK_RETENTION_DAYS;
      const webhookDeliveries = webhooks
        ? await drain((n) => webhooks.purgeSettled(now, webhookDays, n))
        : 0;
      // Each account keeps its own retention, measured by the database's clock.
      const auditEvents = (await deps.audit?.prune(batch, more)) ?? 0;
      const retention = deps.retention;
      const chargesCleared = retention
        ? await drain((n) => retention.clearChargePersonal(now, n))
        : 0;
      const labelNotes = retention ? await drain((n) => retention.clearLabelNotes(now, n)) : 0;
      const allowEntries = retention
        ? await drain((n) => retention.purgeEndedAllowEntries(now, n))
        : 0;
      const baselines = deps.baselines;
      const nowMinute = Math.floor(now.getTime() / 60_000);
      const baselineBuckets = baselines ? await drain((n) => baselines.purge(nowMinute, n)) : 0;
      const baselineTail = baselines ? await drain((n) => baselines.compactTail(nowMinute, n)) : 0;
      await baselines?.vacuum();
      return {
        sessions,
        tokens,
        rateLimits: await deps.throttle.purgeStale(),
        screenings,
        identities,
        collectorTokens,
        webhookDeliveries,
        auditEvents,
        chargesCleared,
        labelNotes,
        allowEntries,
        baselineBuckets,
        baselineTail,
      };
    },
  };
}
