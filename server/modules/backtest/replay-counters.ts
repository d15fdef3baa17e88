/**
 * The counting query of a live screening (screening.repository's probeQuery), answered from
 * memory while a backtest replays events in time order: one list of rows per hashed identity,
 * in time order, so a probe is a binary search for its window's start and a short scan.
 * Rows older than the longest window any probe of the policy looks back are dropped as the
 * replay moves on, so memory follows the busiest window, not the history.
 */
import type { Policy } from "../../engine/types.ts";
import type { IdentityKind } from "../screening/identities.ts";
import type { Probe } from "../screening/probes.ts";

/** One stored identity row as the counting query sees it (hashes, type, time, blocked). */
export type CounterRow = {
  /** Milliseconds since the epoch. */
  at: number;
  type: string;
  blocked: boolean;
  subject: string | null;
  user: string | null;
  card: string | null;
  promo: string | null;
};

type Bucket = { rows: CounterRow[]; head: number };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** What probesFor looks back for promo reuse and self-referrals. */
const LONGEST = 400 * DAY;

/** How far back each identity kind must be remembered for the probes this policy can ask. */
export function lookback(policy: Policy): Partial<Record<IdentityKind, number>> {
  const on = policy.enabled;
  const s = policy.settings;
  const keep: Partial<Record<IdentityKind, number>> = {};
  const need = (kinds: readonly IdentityKind[], ms: number) => {
    for (const kind of kinds) keep[kind] = Math.max(keep[kind] ?? 0, ms);
  };
  if (on.rule_ip) need(["device", "ip", "email"], s.rule_ip.window_days * DAY);
  if (on.rule_promo_abuse) need(["email", "device", "card", "ip"], LONGEST);
  if (on.rule_scraping) need(["ip", "device"], MINUTE);
  if (on.rule_farming && s.rule_farming.accounts) {
    need(["device", "card"], s.rule_farming.window_days * DAY);
  }
  if (on.rule_signup_velocity) need(["ip", "subnet"], HOUR);
  if (on.rule_promo_velocity) {
    need(["promo"], 10 * MINUTE);
    need(["ip", "device"], HOUR);
  }
  if (on.rule_cc_reuse) {
    need(["card"], s.rule_cc_reuse.window_days * DAY);
    need(["user", "email", "ip", "device"], HOUR);
  }
  if (on.rule_device_fingerprint_reuse) {
    need(["device"], s.rule_device_fingerprint_reuse.window_days * DAY);
  }
  if (on.rule_email && s.rule_email.disposable_signups_per_hour !== null) {
    need(["disposable"], HOUR);
  }
  return keep;
}

export function createReplayCounters(keep: Partial<Record<IdentityKind, number>>) {
  // kind → value → rows: no key string is built per lookup.
  const buckets = new Map<IdentityKind, Map<string, Bucket>>();
  let added = 0;

  /** Index of the first live row at or after `since` (rows are in time order). */
  function firstFrom(bucket: Bucket, since: number): number {
    let lo = bucket.head;
    let hi = bucket.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((bucket.rows[mid] as CounterRow).at < since) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  function dropOld(bucket: Bucket, before: number) {
    bucket.head = firstFrom(bucket, before);
    if (bucket.head > 64 && bucket.head * 2 > bucket.rows.length) {
      bucket.rows = bucket.rows.slice(bucket.head);
      bucket.head = 0;
    }
  }

  /** Forgets every row older than its kind's look-back as of `now`. */
  function sweep(now: number) {
    for (const [kind, values] of buckets) {
      for (const [value, bucket] of values) {
        dropOld(bucket, now - (keep[kind] ?? 0));
        if (bucket.head >= bucket.rows.length) values.delete(value);
      }
    }
  }

  function bucketOf(kind: IdentityKind, value: string): Bucket {
    let values = buckets.get(kind);
    if (!values) {
      values = new Map();
      buckets.set(kind, values);
    }
    let bucket = values.get(value);
    if (!bucket) {
      bucket = { rows: [], head: 0 };
      values.set(value, bucket);
    }
    return bucket;
  }

  return {
    /** Whether rows of this kind are ever counted under the policy. */
    wants(kind: IdentityKind): boolean {
      return (keep[kind] ?? 0) > 0;
    },

    /** Records a row of the history before the replay, in any order; `settle` sorts them. */
    seed(kind: IdentityKind, value: string, row: CounterRow) {
      if (keep[kind]) bucketOf(kind, value).rows.push(row);
    },

    /** Puts the seeded rows into time order, once, before the first `add`. */
    settle() {
      for (const values of buckets.values()) {
        for (const bucket of values.values()) bucket.rows.sort((a, b) => a.at - b.at);
      }
    },

    /** Records a replayed row; replayed rows arrive in time order, after every seed. */
    add(kind: IdentityKind, value: string, row: CounterRow) {
      const window = keep[kind];
      if (!window) return;
      const bucket = bucketOf(kind, value);
      bucket.rows.push(row);
      if ((bucket.rows[bucket.head] as CounterRow).at < row.at - window) {
        dropOld(bucket, row.at - window);
      }
      added += 1;
      if (added % 200_000 === 0) sweep(row.at);
    },

    /** The probe's answer, exactly as the live counting query gives it. */
    answer(probe: Probe): number {
      const bucket = buckets.get(probe.kind)?.get(probe.value);
      if (!bucket) return 0;
      const rows = bucket.rows;
      const since = probe.since.getTime();
      const types = probe.types;
      const distinct = probe.measure === "count" ? null : new Set<string>();
      let count = 0;
      for (let i = firstFrom(bucket, since); i < rows.length; i++) {
        const row = rows[i] as CounterRow;
        if (types && !types.includes(row.type)) continue;
        if (probe.notBlocked && row.blocked) continue;
        if (probe.promo && row.promo !== probe.promo) continue;
        if (probe.user && row.user !== probe.user) continue;
        if (distinct) {
          // SQL: count(DISTINCT x) skips nulls, and `x <> except` is false for a null x.
          const value = probe.measure === "distinctCard" ? row.card : row.subject;
          if (value === null) continue;
          if (probe.except && value === probe.except) continue;
          distinct.add(value);
        } else {
          count += 1;
        }
      }
      return distinct ? distinct.size : count;
    },

    /** Identity lists held (for the benchmark's memory report). */
    size(): number {
      let n = 0;
      for (const values of buckets.values()) n += values.size;
      return n;
    },
  };
}

export type ReplayCounters = ReturnType<typeof createReplayCounters>;
