/**
 * The account's baseline kept from memory (issue 45): each committed screening adds to its
 * series in a map (O(1), on no statement's path), and every few seconds one statement adds the
 * map to `SeriesCount`, a 5-minute bucket and an hour per key. Additions, never overwrites, so
 * instances sharing a database add up. A flush that fails keeps its counts for the next one;
 * a kill -9 loses at most the last few seconds of counts (a baseline, not a record: the
 * screenings themselves are stored by their own statement).
 */
import type { SqlRunner } from "../../db/sql-runner.ts";
import type { StoredScreening } from "../screening/screening.entry.ts";
import { additionsOf, bucketOf, isKeyed, SPANS } from "./series.ts";

const FLUSH_MS = 15_000;
/** Past this many pending cells a flush starts at once. */
const FLUSH_AT = 20_000;
/** A keyed series' key seen once in this long is not stored (addKeyed). */
export const HOLD_MINUTES = 5 * 60;
/** Cells kept across failed flushes at most; beyond it the oldest counts are dropped (logged). */
const KEEP_AT_MOST = 500_000;

const UPSERT = `INSERT INTO "SeriesCount" ("accountId", "series", "key", "at", "span", "n", "seen")
SELECT x.a, x.s, x.k, x.at, x.span, x.n, x.seen
FROM jsonb_to_recordset($1::jsonb) AS x(a text, s text, k text, at int, span int, n bigint, seen int)
WHERE EXISTS (SELECT 1 FROM "Account" WHERE "id" = x.a)
ORDER BY x.a, x.s, x.span, x.at, x.k
ON CONFLICT ("accountId", "series", "span", "at", "key")
DO UPDATE SET "n" = "SeriesCount"."n" + EXCLUDED."n",
  "seen" = GREATEST("SeriesCount"."seen", EXCLUDED."seen")`;

/** One bucket of one key: what to add, and the minute of its latest addition. */
type Cell = { a: string; s: string; k: string; at: number; span: number; n: number; seen: number };

export function createRollups({
  sql,
  log,
  flushMs = FLUSH_MS,
}: {
  sql: Pick<SqlRunner, "query">;
  log: { warn(obj: object, msg: string): void };
  flushMs?: number;
}) {
  let pending = new Map<string, Cell>();
  /** Keyed series' keys seen in the last HOLD_MINUTES: the first event held until a second. */
  const recent = new Map<
    string,
    { minute: number; bucket: number; week: number; stored: boolean }
  >();
  /** The latest minute added (the screenings' clock, which tests and the simulator move). */
  let latest = 0;
  let flushing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  function addCell(
    a: string,
    s: string,
    k: string,
    at: number,
    span: number,
    n: number,
    seen: number,
  ) {
    const id = `${a}\u0000${s}\u0000${k}\u0000${span}\u0000${at}`;
    const cell = pending.get(id);
    if (cell) {
      cell.n += n;
      if (seen > cell.seen) cell.seen = seen;
    } else pending.set(id, { a, s, k, at, span, n, seen });
  }

  /**
   * A keyed series' event (a network's signup, a promo code's redemption): held in memory while
   * its key has been seen once in the last `HOLD_MINUTES`, stored with the next one. Most keys
   * are seen once (a household's /24, a person's own domain); a key seen less than once in five
   * hours has a usual rate under 0.2 an hour, which the spike test's floor (0.5) stands for
   * anyway, so leaving it out changes no verdict and saves the rows that were most of the
   * rollups' cost (decision 039). Per instance: several instances each hold their own.
   */
  function addKeyed(a: string, s: string, k: string, minute: number, bucket: number, week: number) {
    const id = `${a}\u0000${s}\u0000${k}`;
    const seen = recent.get(id);
    if (!seen || seen.minute < minute - HOLD_MINUTES) {
      recent.set(id, { minute, bucket, week, stored: false });
      return;
    }
    if (!seen.stored) {
      addCell(a, s, k, seen.bucket, SPANS.bucket, 1, seen.minute);
      addCell(a, s, k, seen.week, SPANS.week, 1, seen.minute);
      seen.stored = true;
    }
    seen.minute = Math.max(seen.minute, minute);
    addCell(a, s, k, bucket, SPANS.bucket, 1, minute);
    addCell(a, s, k, week, SPANS.week, 1, minute);
  }

  /** Forgets the keys not seen for `HOLD_MINUTES`: a single one held is dropped. */
  function forget() {
    for (const [id, seen] of recent) if (seen.minute < latest - HOLD_MINUTES) recent.delete(id);
  }

  async function flushOnce(): Promise<void> {
    forget();
    if (pending.size === 0) return;
    const cells = pending;
    pending = new Map();
    try {
      await sql.query(UPSERT, [JSON.stringify([...cells.values()])]);
    } catch (error) {
      // Kept for the next flush, added to what came meanwhile.
      for (const c of cells.values()) addCell(c.a, c.s, c.k, c.at, c.span, c.n, c.seen);
      if (pending.size > KEEP_AT_MOST) {
        log.warn({ cells: pending.size }, "baseline counts dropped: the database refused them");
        pending = new Map();
      }
      throw error;
    }
  }

  const rollups = {
    /** One committed screening's additions, in memory. */
    add(
      row: Pick<
        StoredScreening,
        "accountId" | "createdAt" | "type" | "decision" | "rules" | "score" | "identities" | "input"
      >,
    ) {
      const ms = row.createdAt.getTime();
      const minute = Math.floor(ms / 60_000);
      const bucket = bucketOf(ms, SPANS.bucket);
      const hour = bucketOf(ms, SPANS.hour);
      const week = bucketOf(ms, SPANS.week);
      for (const { series, key, n } of additionsOf(row)) {
        if (isKeyed(series)) {
          addKeyed(row.accountId, series, key, minute, bucket, week);
          continue;
        }
        addCell(row.accountId, series, key, bucket, SPANS.bucket, n, minute);
        addCell(row.accountId, series, key, hour, SPANS.hour, n, minute);
      }
      if (minute > latest) latest = minute;
      if (pending.size >= FLUSH_AT && !flushing) void rollups.flush().catch(() => {});
    },
    /** Adds every pending count to the database; resolves when stored (throws if refused). */
    async flush(): Promise<void> {
      while (flushing) await flushing.catch(() => {});
      flushing = flushOnce();
      try {
        await flushing;
      } finally {
        flushing = null;
      }
    },
    /** Cells waiting for the next flush (tests, metrics). */
    get pending() {
      return pending.size;
    },
    /** Keyed series' keys held or remembered (tests, metrics). */
    get held() {
      return recent.size;
    },
    start() {
      if (timer) return;
      timer = setInterval(() => {
        rollups.flush().catch((error) => log.warn({ err: error }, "baseline flush failed"));
      }, flushMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await rollups.flush().catch((error) => log.warn({ err: error }, "baseline flush failed"));
    },
  };
  return rollups;
}

export type Rollups = ReturnType<typeof createRollups>;
