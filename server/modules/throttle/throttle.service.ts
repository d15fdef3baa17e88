import { AppError } from "../../lib/app-error.ts";
import type { ThrottleRepository } from "./throttle.repository.ts";

export type Limit = { limit: number; windowMs: number; message: string };

export function createThrottleService(repo: ThrottleRepository, now: () => Date) {
  function retryAfterSeconds(windowStart: Date, windowMs: number): number {
    return Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now().getTime()) / 1000));
  }

  return {
    /** Counts one use of `key`; throws 429 once the window holds more than `limit`. */
    async consume(key: string, { limit, windowMs, message }: Limit): Promise<void> {
      const { count, windowStart } = await repo.hit(key, now(), windowMs);
      if (count > limit) {
        throw new AppError("TOO_MANY_REQUESTS", message, {
          retryAfterSeconds: retryAfterSeconds(windowStart, windowMs),
        });
      }
    },

    /** Throws 429 while `key` has `limit` recorded failures in its window; records nothing. */
    async assertNotLocked(key: string, { limit, windowMs, message }: Limit): Promise<void> {
      const row = await repo.find(key);
      if (!row || row.count < limit) return;
      if (row.windowStart.getTime() + windowMs <= now().getTime()) return;
      throw new AppError("TOO_MANY_REQUESTS", message, {
        retryAfterSeconds: retryAfterSeconds(row.windowStart, windowMs),
      });
    },

    /** Records a failure; the one that reaches `limit` starts a full-window lock-out. */
    async recordFailure(key: string, { limit, windowMs }: Limit): Promise<void> {
      await repo.hit(key, now(), windowMs, limit);
    },

    async clear(key: string): Promise<void> {
      await repo.clear(key);
    },

    /** Drops counters older than a day, far past the longest window (one hour). */
    async purgeStale(): Promise<number> {
      const { count } = await repo.deleteStale(new Date(now().getTime() - 24 * 60 * 60 * 1000));
      return count;
    },
  };
}

export type ThrottleService = ReturnType<typeof createThrottleService>;
