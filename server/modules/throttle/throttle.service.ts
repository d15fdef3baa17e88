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

    /**
     * Counts an attempt before it is made (a login before its password is checked), so
     * parallel or batched attempts cannot all slip under the limit: the attempt that goes
     * past `limit` and every one after it get 429 until the window, restarted by the attempt
     * that reached `limit`, is over. clear() after a success starts the count again.
     */
    async attempt(key: string, { limit, windowMs, message }: Limit): Promise<void> {
      const { count, windowStart } = await repo.hit(key, now(), windowMs, limit);
      if (count > limit) {
        throw new AppError("TOO_MANY_REQUESTS", message, {
          retryAfterSeconds: retryAfterSeconds(windowStart, windowMs),
        });
      }
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
