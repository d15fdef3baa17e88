/**
 * The dashboard's decisions per minute: the database's counts (only the minutes that had
 * any) laid out as every minute of the last hour, the current one last, with the totals.
 */
import {
  type DecisionMinute,
  type DecisionsPerMinute,
  PER_MINUTE_SPAN,
} from "../../../shared/schemas/live.ts";

const MINUTE_MS = 60_000;

/** A count from the database: minutes since the epoch (UTC), a decision, how many. */
export type MinuteCount = { minute: number; decision: string; n: number };

/** The span's first minute and the end of its last (the current one), as times. */
export function minuteSpan(now: Date): { first: number; from: Date; to: Date } {
  const current = Math.floor(now.getTime() / MINUTE_MS);
  const first = current - PER_MINUTE_SPAN + 1;
  return {
    first,
    from: new Date(first * MINUTE_MS),
    to: new Date((current + 1) * MINUTE_MS),
  };
}

/** Every minute of the span, oldest first; counts outside it or of another decision ignored. */
export function minuteSeries(now: Date, counts: readonly MinuteCount[]): DecisionsPerMinute {
  const { first } = minuteSpan(now);
  const minutes: DecisionMinute[] = Array.from({ length: PER_MINUTE_SPAN }, (_, i) => ({
    minute: new Date((first + i) * MINUTE_MS).toISOString(),
    allow: 0,
    review: 0,
    block: 0,
  }));
  const totals = { allow: 0, review: 0, block: 0 };
  for (const { minute, decision, n } of counts) {
    const slot = minutes[minute - first];
    if (!slot || !(decision === "allow" || decision === "review" || decision === "block")) {
      continue;
    }
    slot[decision] += n;
    totals[decision] += n;
  }
  return { minutes, totals };
}
