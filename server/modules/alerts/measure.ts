/**
 * What an alert reads now: the value of its series over its window, the usual value where it
 * has one, whether it is past its threshold or a spike, a sentence for the merchant, and the
 * chart of the last two hours (5-minute buckets) around the moment.
 */

import { RULE_RECORDS } from "../../../shared/catalog/rule-records.ts";
import {
  type AlertPoint,
  BUCKET_MINUTES,
  type KeyedSeries,
  SERIES_LABELS,
} from "../../../shared/schemas/alerts.ts";
import { SCREEN_TYPES } from "../../../shared/schemas/screen-types.ts";
import {
  baselineHours,
  bucketOf,
  keyedUsualPerHour,
  keyedWeeks,
  P_SPIKE,
  SPANS,
  spikeOf,
  usualPerHour,
} from "../baselines/baselines.entry.ts";
import type { BaselinesRepository } from "../baselines/baselines.repository.ts";

/** An alert as measured: the columns that say what it watches. */
export type Watched = {
  metric: string;
  mode: string;
  rule: string | null;
  series: string | null;
  threshold: number | null;
  windowMinutes: number;
};

export type Reading = {
  on: boolean;
  value: number;
  usual: number | null;
  message: string;
  points: AlertPoint[];
};

/** What measuring reads besides the rollups: the review queue and the webhook endpoints. */
export type Sources = {
  baselines: BaselinesRepository;
  oldestOpenReview(accountId: string): Promise<Date | null>;
  longestFailingEndpoint(accountId: string): Promise<{ url: string; since: Date } | null>;
};

/** A plain series' longest spike window: its 5-minute buckets are kept a day and an hour. */
const MAX_PLAIN_WINDOW = 1440;
/** A keyed series' longest spike window: its 5-minute buckets are kept five hours. */
const MAX_KEYED_WINDOW = 240;

/**
 * The windows a spike is looked for over: the alert's, and four and sixteen times it, up to
 * `most`. An attack that builds up over hours (a few blocks every quarter hour against none
 * usually) is a spike over four hours long before it is one over fifteen minutes. Each is held
 * to P_SPIKE divided by how many there are, so looking more often is not more false alarms.
 */
export function spikeWindows(window: number, most: number): number[] {
  return [...new Set([window, 4 * window, 16 * window].map((w) => Math.min(w, most)))];
}

/** A rate is judged only over at least this many screenings. */
export const MIN_SCREENINGS = 20;
/** The chart: this many buckets up to now. */
const CHART_BUCKETS = 24;

const round1 = (n: number) => Math.round(n * 10) / 10;
const minutesOf = (at: Date) => Math.floor(at.getTime() / 60_000);
const iso = (minute: number) => new Date(minute * 60_000).toISOString();

export async function measure(
  src: Sources,
  accountId: string,
  alert: Watched,
  now: Date,
): Promise<Reading> {
  const { baselines } = src;
  const window = alert.windowMinutes;
  const current = bucketOf(now.getTime(), SPANS.bucket);
  const to = current + BUCKET_MINUTES;
  const from = to - window;
  const chartFrom = to - CHART_BUCKETS * BUCKET_MINUTES;
  const hour = bucketOf(now.getTime(), SPANS.hour);
  const span = `the last ${window} min`;
  const threshold = alert.threshold ?? 0;

  /** The account's first hour of data: read once however many usual rates need it. */
  let first: Promise<number | null> | undefined;
  const firstHour = () => {
    first ??= baselines.firstHour(accountId);
    return first;
  };
  /** The same hours before, and the usual count an hour of `keys`. */
  const usualOf = async (series: string, keys: readonly string[]) => {
    const hours = baselineHours(hour, await firstHour());
    return usualPerHour(hours, await baselines.hours(accountId, series, keys, hours));
  };
  const chart = async (series: string, keys: readonly string[], usual: number | null) => {
    const counts = await baselines.buckets(accountId, series, keys, chartFrom, to);
    return points(chartFrom, (at) => counts.get(at) ?? 0, usual === null ? null : usual / 12);
  };
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  /**
   * A plain series' spike over the alert's window or a longer one (spikeWindows): the first
   * that is one, else the alert's own window.
   */
  const plainSpike = async (series: string, keys: readonly string[], usual: number | null) => {
    const windows = spikeWindows(window, MAX_PLAIN_WINDOW);
    let reading: { count: number; minutes: number; on: boolean } | null = null;
    for (const minutes of windows) {
      const count = sum(await baselines.windowByKey(accountId, series, to - minutes, to, keys));
      const verdict = spikeOf(count, usual, minutes, { pSpike: P_SPIKE / windows.length });
      if (verdict.spike) return { count, minutes, on: true };
      reading ??= { count, minutes, on: false };
    }
    return reading ?? { count: 0, minutes: window, on: false };
  };

  switch (alert.metric) {
    case "block_rate":
    case "review_rate": {
      const decision = alert.metric === "block_rate" ? "block" : "review";
      const noun = decision === "block" ? "blocks" : "reviews";
      const keys = SCREEN_TYPES.map((t) => `${t}:${decision}`);
      if (alert.mode === "spike") {
        const usual = await usualOf("decision", keys);
        const { count, minutes, on } = await plainSpike("decision", keys, usual);
        return {
          on,
          value: count,
          usual,
          message: `${count} ${noun} in the last ${minutes} min; usual for this hour ${usualText(usual)}`,
          points: await chart("decision", keys, usual),
        };
      }
      const count = sum(await baselines.windowByKey(accountId, "decision", from, to, keys));
      const total = sum(await baselines.windowByKey(accountId, "screenings", from, to));
      const rate = total >= MIN_SCREENINGS ? (100 * count) / total : 0;
      const decided = await baselines.buckets(accountId, "decision", keys, chartFrom, to);
      const all = await baselines.buckets(accountId, "screenings", SCREEN_TYPES, chartFrom, to);
      return {
        on: total >= MIN_SCREENINGS && rate >= threshold,
        value: round1(rate),
        usual: null,
        message: `${round1(rate)}% of screenings ${decision === "block" ? "blocked" : "sent to review"} in ${span} (${count} of ${total}; alert at ${threshold}%)`,
        points: points(
          chartFrom,
          (at) => {
            const n = all.get(at) ?? 0;
            return n === 0 ? 0 : round1((100 * (decided.get(at) ?? 0)) / n);
          },
          null,
        ),
      };
    }
    case "rule_hits": {
      const rule = alert.rule ?? "";
      const named = `"${ruleLabel(rule)}"`;
      if (alert.mode === "spike") {
        const usual = await usualOf("rule", [rule]);
        const { count, minutes, on } = await plainSpike("rule", [rule], usual);
        return {
          on,
          value: count,
          usual,
          message: `${count} hits of ${named} in the last ${minutes} min; usual for this hour ${usualText(usual)}`,
          points: await chart("rule", [rule], usual),
        };
      }
      const count = sum(await baselines.windowByKey(accountId, "rule", from, to, [rule]));
      return {
        on: count >= threshold,
        value: count,
        usual: null,
        message: `${count} hits of ${named} in ${span} (alert at ${threshold})`,
        points: await chart("rule", [rule], null),
      };
    }
    case "series_spike": {
      const series = (alert.series ?? "signup_network") as KeyedSeries;
      const label = SERIES_LABELS[series];
      const week = bucketOf(now.getTime(), SPANS.week);
      const windows = spikeWindows(window, MAX_KEYED_WINDOW);
      let best: Reading | null = null;
      for (const minutes of windows) {
        const top = await baselines.topKeys(accountId, series, to - minutes, to, 5);
        for (const { key, n } of top) {
          const usual = keyedUsualPerHour({
            weekly: await baselines.weeks(accountId, series, key, keyedWeeks(week)),
            week,
            windowStart: to - minutes,
            inWindow: n,
            firstMinute: await firstHour(),
          });
          const verdict = spikeOf(n, usual, minutes, { pSpike: P_SPIKE / windows.length });
          const reading = {
            on: verdict.spike,
            value: n,
            usual,
            message: `${n} ${label.what} from ${label.one} in the last ${minutes} min; usual for this hour ${usualText(usual)}`,
            points: [] as AlertPoint[],
          };
          if (verdict.spike) {
            reading.points = await chart(series, [key], usual);
            return reading;
          }
          best ??= reading;
        }
      }
      return (
        best ?? {
          on: false,
          value: 0,
          usual: null,
          message: `no ${label.what} in ${span}`,
          points: [],
        }
      );
    }
    case "score_shift": {
      const scores = sum(await baselines.windowByKey(accountId, "score", from, to));
      const total = sum(await baselines.windowByKey(accountId, "screenings", from, to));
      const hours = baselineHours(hour, await firstHour());
      const usualScores = await baselines.hours(accountId, "score", SCREEN_TYPES, hours);
      const usualTotal = await baselines.hours(accountId, "screenings", SCREEN_TYPES, hours);
      const usualN = [...usualTotal.values()].reduce((a, b) => a + b, 0);
      const usualMean =
        usualN >= MIN_SCREENINGS
          ? [...usualScores.values()].reduce((a, b) => a + b, 0) / usualN
          : null;
      const mean = total > 0 ? scores / total : 0;
      const shift = usualMean === null || total < MIN_SCREENINGS ? 0 : mean - usualMean;
      const scoreB = await baselines.buckets(accountId, "score", SCREEN_TYPES, chartFrom, to);
      const countB = await baselines.buckets(accountId, "screenings", SCREEN_TYPES, chartFrom, to);
      return {
        on: usualMean !== null && total >= MIN_SCREENINGS && Math.abs(shift) >= threshold,
        value: round1(shift),
        usual: usualMean === null ? null : round1(usualMean),
        message:
          usualMean === null
            ? `mean score ${round1(mean)} in ${span}; no usual mean yet`
            : `mean score ${round1(mean)} in ${span}, ${shift >= 0 ? "+" : ""}${round1(shift)} against ${round1(usualMean)} for this hour (alert at ±${threshold})`,
        points: points(
          chartFrom,
          (at) => {
            const n = countB.get(at) ?? 0;
            return n === 0 ? 0 : round1((scoreB.get(at) ?? 0) / n);
          },
          usualMean,
        ),
      };
    }
    case "review_oldest": {
      const oldest = await src.oldestOpenReview(accountId);
      const hours = oldest ? (now.getTime() - oldest.getTime()) / 3_600_000 : 0;
      return {
        on: oldest !== null && hours >= threshold,
        value: round1(hours),
        usual: null,
        message: oldest
          ? `the oldest open review has waited ${round1(hours)} hours (alert at ${threshold})`
          : "the review queue is empty",
        points: [],
      };
    }
    case "webhook_failing": {
      const failing = await src.longestFailingEndpoint(accountId);
      const minutes = failing ? minutesOf(now) - minutesOf(failing.since) : 0;
      return {
        on: failing !== null && minutes >= threshold,
        value: minutes,
        usual: null,
        message: failing
          ? `the webhook endpoint ${hostOf(failing.url)} has failed every delivery for ${minutes} min (alert at ${threshold})`
          : "no webhook endpoint is failing",
        points: [],
      };
    }
    default:
      return {
        on: false,
        value: 0,
        usual: null,
        message: `unknown metric ${alert.metric}`,
        points: [],
      };
  }
}

function points(from: number, value: (at: number) => number, usual: number | null): AlertPoint[] {
  return Array.from({ length: CHART_BUCKETS }, (_, i) => {
    const at = from + i * BUCKET_MINUTES;
    return { at: iso(at), value: value(at), usual: usual === null ? null : round1(usual) };
  });
}

/** A rule's name as the Rules page shows it (its key when it is not a known rule). */
function ruleLabel(rule: string): string {
  return (RULE_RECORDS as Record<string, { label: string }>)[rule]?.label ?? rule;
}

const usualText = (usual: number | null) =>
  usual === null ? "not known yet" : String(round1(usual));

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(invalid URL)";
  }
}
