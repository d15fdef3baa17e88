/**
 * Reads of the account's baseline (`SeriesCount`, kept by rollups.ts): a window's count per
 * key, its busiest keys, the hours a usual rate is read from, the buckets a chart draws, and
 * housekeeping's expiry. Each read is one index range of one account and series.
 */
import type { SqlRunner } from "../../db/sql-runner.ts";
import { SPANS } from "./series.ts";

/** 5-minute buckets are kept two days, hours five weeks (the baseline reads four weeks back). */
export const KEEP_MINUTES = { [SPANS.bucket]: 2 * 24 * 60, [SPANS.hour]: 35 * 24 * 60 } as const;

const num = (v: unknown) => Number(v ?? 0);

export function createBaselinesRepository(sql: Pick<SqlRunner, "query">) {
  return {
    /** Per key, the count in the 5-minute buckets starting in [from, to) (minutes). */
    async windowByKey(
      accountId: string,
      series: string,
      from: number,
      to: number,
      keys?: readonly string[],
    ): Promise<Map<string, number>> {
      const rows = await sql.query<{ key: string; n: unknown }>(
        `SELECT "key", sum("n") AS n FROM "SeriesCount"
         WHERE "accountId" = $1 AND "series" = $2 AND "span" = ${SPANS.bucket}
           AND "at" >= $3 AND "at" < $4 ${keys ? `AND "key" = ANY($5::text[])` : ""}
         GROUP BY "key"`,
        keys ? [accountId, series, from, to, keys] : [accountId, series, from, to],
      );
      return new Map(rows.map((r) => [r.key, num(r.n)]));
    },

    /** The `limit` keys with the most in the window, most first. */
    async topKeys(accountId: string, series: string, from: number, to: number, limit: number) {
      const rows = await sql.query<{ key: string; n: unknown }>(
        `SELECT "key", sum("n") AS n FROM "SeriesCount"
         WHERE "accountId" = $1 AND "series" = $2 AND "span" = ${SPANS.bucket}
           AND "at" >= $3 AND "at" < $4
         GROUP BY "key" ORDER BY n DESC, "key" LIMIT $5`,
        [accountId, series, from, to, limit],
      );
      return rows.map((r) => ({ key: r.key, n: num(r.n) }));
    },

    /** Per hour bucket among `hours`, the count of `keys` (summed over them). */
    async hours(
      accountId: string,
      series: string,
      keys: readonly string[],
      hours: readonly number[],
    ): Promise<Map<number, number>> {
      if (hours.length === 0 || keys.length === 0) return new Map();
      const rows = await sql.query<{ at: number; n: unknown }>(
        `SELECT "at", sum("n") AS n FROM "SeriesCount"
         WHERE "accountId" = $1 AND "series" = $2 AND "span" = ${SPANS.hour}
           AND "key" = ANY($3::text[]) AND "at" = ANY($4::int[])
         GROUP BY "at"`,
        [accountId, series, keys, hours],
      );
      return new Map(rows.map((r) => [Number(r.at), num(r.n)]));
    },

    /** Per 5-minute bucket in [from, to), the count of `keys` (summed over them). */
    async buckets(
      accountId: string,
      series: string,
      keys: readonly string[],
      from: number,
      to: number,
    ): Promise<Map<number, number>> {
      const rows = await sql.query<{ at: number; n: unknown }>(
        `SELECT "at", sum("n") AS n FROM "SeriesCount"
         WHERE "accountId" = $1 AND "series" = $2 AND "span" = ${SPANS.bucket}
           AND "key" = ANY($3::text[]) AND "at" >= $4 AND "at" < $5
         GROUP BY "at"`,
        [accountId, series, keys, from, to],
      );
      return new Map(rows.map((r) => [Number(r.at), num(r.n)]));
    },

    /** The first hour the account has any screening counted in (null: none yet). */
    async firstHour(accountId: string): Promise<number | null> {
      const rows = await sql.query<{ at: number | null }>(
        `SELECT min("at") AS at FROM "SeriesCount"
         WHERE "accountId" = $1 AND "series" = 'screenings' AND "span" = ${SPANS.hour}`,
        [accountId],
      );
      const at = rows[0]?.at;
      return at === null || at === undefined ? null : Number(at);
    },

    /** Deletes up to `batch` buckets past their keeping; the number deleted. */
    async purge(nowMinute: number, batch: number): Promise<number> {
      let deleted = 0;
      for (const [span, keep] of Object.entries(KEEP_MINUTES)) {
        const rows = await sql.query<{ n: unknown }>(
          `WITH gone AS (
             DELETE FROM "SeriesCount" WHERE ctid IN (
               SELECT ctid FROM "SeriesCount" WHERE "span" = $1 AND "at" < $2 LIMIT $3)
             RETURNING 1)
           SELECT count(*) AS n FROM gone`,
          [Number(span), nowMinute - keep, batch],
        );
        deleted += num(rows[0]?.n);
      }
      return deleted;
    },
  };
}

export type BaselinesRepository = ReturnType<typeof createBaselinesRepository>;
