/**
 * Housekeeping: expired sessions and tokens, stale rate-limit counters, screenings past
 * retention, and the screenings' counting rows past the longest window a rule looks back
 * (400 days; request events, counted over one minute, after a day), and the browser
 * collector's signal tokens a day after they expired, and decision webhook deliveries that
 * were delivered or given up on, past their retention (the console's log keeps the rest), and
 * audit events past their account's retention (Account.auditRetentionDays).
 */
import type { AuditService } from "../audit/audit.service.ts";
import type { AuthService } from "../auth/auth.service.ts";
import type { CollectorService } from "../collector/collector.service.ts";
import type { ScreeningRepository } from "../screening/screening.repository.ts";
import type { ThrottleService } from "../throttle/throttle.service.ts";
import type { WebhooksService } from "../webhooks/webhooks.service.ts";

const DAY_MS = 86_400_000;
const LONGEST_WINDOW_DAYS = 400;
/** The default of WEBHOOK_DELIVERY_RETENTION_DAYS. */
const WEBHOOK_RETENTION_DAYS = 30;

export function createHousekeepingService(deps: {
  auth: Pick<AuthService, "purgeExpired">;
  throttle: Pick<ThrottleService, "purgeStale">;
  screenings: Pick<ScreeningRepository, "purge">;
  signalTokens?: Pick<CollectorService, "purgeExpired">;
  webhooks?: Pick<WebhooksService, "purgeSettled">;
  audit?: Pick<AuditService, "prune">;
  retentionDays: number;
  /** Days a delivered or failed webhook delivery is kept. */
  webhookRetentionDays?: number;
  now: () => Date;
}) {
  return {
    async purgeExpired() {
      const { sessions, tokens } = await deps.auth.purgeExpired();
      const at = deps.now().getTime();
      const screenings = await deps.screenings.purge({
        screenings: new Date(at - deps.retentionDays * DAY_MS),
        identities: new Date(at - LONGEST_WINDOW_DAYS * DAY_MS),
        requests: new Date(at - DAY_MS),
      });
      const signalTokens = (await deps.signalTokens?.purgeExpired(new Date(at - DAY_MS))) ?? 0;
      const webhookDeliveries =
        (await deps.webhooks?.purgeSettled(
          new Date(at - (deps.webhookRetentionDays ?? WEBHOOK_RETENTION_DAYS) * DAY_MS),
        )) ?? 0;
      // Each account keeps its own retention, measured by the database's clock.
      const auditEvents = (await deps.audit?.prune()) ?? 0;
      return {
        sessions,
        tokens,
        rateLimits: await deps.throttle.purgeStale(),
        ...screenings,
        signalTokens,
        webhookDeliveries,
        auditEvents,
      };
    },
  };
}
