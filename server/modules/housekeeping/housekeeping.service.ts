/** Housekeeping: expired sessions and tokens, and stale rate-limit counters. */
import type { AuthService } from "../auth/auth.service.ts";
import type { ThrottleService } from "../throttle/throttle.service.ts";

export function createHousekeepingService(deps: {
  auth: Pick<AuthService, "purgeExpired">;
  throttle: Pick<ThrottleService, "purgeStale">;
}) {
  return {
    async purgeExpired() {
      const { sessions, tokens } = await deps.auth.purgeExpired();
      return { sessions, tokens, rateLimits: await deps.throttle.purgeStale() };
    },
  };
}
