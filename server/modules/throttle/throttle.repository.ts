/** Fixed-window counters in the database, so every server instance shares them. */
import type { PrismaClient } from "../../db/generated/client.ts";

export function createThrottleRepository(prisma: PrismaClient) {
  return {
    /**
     * Adds one hit to `key` and returns the window's count and start. A window older than
     * `windowMs` starts over; with `restartAt`, the hit that reaches exactly that count restarts
     * the window too, so a lock-out lasts a full window from the moment it begins (later hits
     * do not prolong it). One statement, so concurrent hits are counted one by one.
     */
    async hit(key: string, now: Date, windowMs: number, restartAt?: number) {
      const expiredBefore = new Date(now.getTime() - windowMs);
      const restart = restartAt ?? 2147483647;
      const rows = await prisma.$queryRaw<{ count: number; windowStart: Date }[]>`
        INSERT INTO "RateLimit" ("key", "windowStart", "count") VALUES (${key}, ${now}, 1)
        ON CONFLICT ("key") DO UPDATE SET
          "count" = CASE WHEN "RateLimit"."windowStart" <= ${expiredBefore} THEN 1
                         ELSE "RateLimit"."count" + 1 END,
          "windowStart" = CASE WHEN "RateLimit"."windowStart" <= ${expiredBefore} THEN ${now}
                               WHEN "RateLimit"."count" + 1 = ${restart} THEN ${now}
                               ELSE "RateLimit"."windowStart" END
        RETURNING "count", "windowStart"`;
      const row = rows[0];
      if (!row) throw new Error(`rate limit upsert returned nothing for ${key}`);
      return { count: Number(row.count), windowStart: new Date(row.windowStart) };
    },

    clear(key: string) {
      return prisma.rateLimit.deleteMany({ where: { key } });
    },

    /** Removes counters whose window started before `before` (they count nothing any more). */
    deleteStale(before: Date) {
      return prisma.rateLimit.deleteMany({ where: { windowStart: { lt: before } } });
    },
  };
}

export type ThrottleRepository = ReturnType<typeof createThrottleRepository>;
