/**
 * Housekeeping: expired sessions and tokens, stale rate-limit counters, screenings past
 * retention, and the screenings' counting rows past the longest window a rule looks back
 * (400 days; request events, counted over one minute, after a day).
 */
import type { AuthService } from "../auth/auth.service.ts";
import type { ScreeningRepository } from "../screening/screening.repository.ts";
import type { ThrottleService } from "../throttle/throttle.service.ts";

const DAY_MS = 86_400_000;
const LONGEST_WINDOW_DAYS = 400;

export function createHousekeepingService(deps: {
  auth: Pick<AuthService, "purgeExpired">;
  throttle: Pick<ThrottleService, "purgeStale">;
  screenings: Pick<ScreeningRepository, "purge">;
  retentionDays: number;
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
      return { sessions, tokens, rateLimits: await deps.throttle.purgeStale(), ...screenings };
    },
  };
}
