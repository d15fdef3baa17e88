/**
 * Reads of the account's baseline (`SeriesCount`, kept by rollups.ts): a window's count per
 * key, its busiest keys, the hours or weeks a usual rate is read from, the buckets a chart
 * draws, and housekeeping's expiry and compaction. Each read is one range of the primary key
 * (account, series, span, bucket, key).
 */

import { KEYED_SERIES } from "../../../shared/schemas/alerts.ts";
import type { SqlRunner } from "../../db/sql-runner.ts";
import { SPANS } from "./series.ts";
import { DAY_MINUTES } from "./spike.ts";

/** Keys seen at most this many times in all the hours kept are not kept past their day. */
export const TAIL = 2;

/**
 * How long buckets are kept (minutes past their start): plain 5-minute ones a day and an hour (an
 * alert's window is at most a day), keyed ones five hours (a key's window is at most an hour,
 * looked at over four too; its chart two); hours and weeks five weeks (the usual rate reads four weeks back).
 */
export const KEEP: readonly { span: number; keep: number; keyed?: boolean }[] = [
  { span: SPANS.bucket, keep: 25 * 60, keyed: false },
  { span: SPANS.bucket, keep: 5 * 60, keyed: true },
  { span: SPANS.hour, keep: 35 * 24 * 60 },
  { span: SPANS.week, keep: 6 * SPANS.week },
];

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

    /** The accounts with any 5-minute bucket from `since` (minutes) on: those with traffic. */
    async activeAccounts(since: number): Promise<Set<string>> {
      const rows = await sql.query<{ accountId: string }>(
        `SELECT DISTINCT "accountId" FROM "SeriesCount" WHERE "span" = ${SPANS.bucket} AND "at" >= $1`,
        [since],
      );
      return new Set(rows.map((r) => r.accountId));
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

    /** Per week bucket among `weeks`, the count of `key` of a keyed series. */
    async weeks(
      accountId: string,
      series: string,
      key: string,
      weeks: readonly number[],
    ): Promise<Map<number, number>> {
      const rows = await sql.query<{ at: number; n: unknown }>(
        `SELECT "at", "n" FROM "SeriesCount"
         WHERE "accountId" = $1 AND "series" = $2 AND "span" = ${SPANS.week}
           AND "at" = ANY($3::int[]) AND "key" = $4`,
        [accountId, series, weeks, key],
      );
      return new Map(rows.map((r) => [Number(r.at), num(r.n)]));
    },

    /**
     * The long tail of keyed series (one /24's, one domain's signups): the weeks of keys seen at
     * most `TAIL` times and not in the last day. What they add to a key's usual rate (at most
     * TAIL a week, 0.012 an hour) is far below the floor (0.5 an hour), so no verdict changes
     * without them; and most keys are such. Up to `batch` rows a call; the number deleted.
     */
    async compactTail(nowMinute: number, batch: number): Promise<number> {
      const rows = await sql.query<{ n: unknown }>(
        `WITH gone AS (
           DELETE FROM "SeriesCount" WHERE ctid IN (
             SELECT ctid FROM "SeriesCount"
             WHERE "span" = ${SPANS.week} AND "n" <= ${TAIL} AND "seen" < $1 LIMIT $2)
           RETURNING 1)
         SELECT count(*) AS n FROM gone`,
        [nowMinute - DAY_MINUTES, batch],
      );
      return num(rows[0]?.n);
    },

    /**
     * Makes the room of rows expired, dropped or added to since reusable. Every flush leaves a
     * dead version of each row it adds to, and the embedded database has no autovacuum: without
     * this, a week at 1M screenings left 300 MB of dead rows around 10 MB of live ones.
     */
    async vacuum(): Promise<void> {
      await sql.query(`VACUUM "SeriesCount"`);
    },

    /** Deletes up to `batch` buckets past their keeping (each kind in turn); the number deleted. */
    async purge(nowMinute: number, batch: number): Promise<number> {
      let deleted = 0;
      for (const { span, keep, keyed } of KEEP) {
        const rows = await sql.query<{ n: unknown }>(
          `WITH gone AS (
             DELETE FROM "SeriesCount" WHERE ctid IN (
               SELECT ctid FROM "SeriesCount" WHERE "span" = $1 AND "at" < $2
                 ${keyed === undefined ? "" : `AND ${keyed ? "" : "NOT "}"series" = ANY($4::text[])`}
               LIMIT $3)
             RETURNING 1)
           SELECT count(*) AS n FROM gone`,
          keyed === undefined
            ? [span, nowMinute - keep, batch]
            : [span, nowMinute - keep, batch, KEYED_SERIES],
        );
        deleted += num(rows[0]?.n);
      }
      return deleted;
    },
  };
}

export type BaselinesRepository = ReturnType<typeof createBaselinesRepository>;
