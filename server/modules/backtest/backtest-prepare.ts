/**
 * The part of judging a stored screening that keeps no state: parse what was stored, compute
 * the event's features and hash its identities. Run by the
 * backtest's worker thread (backtest-worker.ts) in batches, while the main thread keeps the
 * counters, the engine and the tally in time order, so the decisions are the live path's by
 * construction (`screeningInputs` is the live path's own code).
 */
import type { CollectedSignals } from "../../../shared/schemas/collect.ts";
import type { ScreenEvent } from "../../../shared/schemas/screening.ts";
import type { EventSubject, Features, Policy } from "../../engine/types.ts";
import type { Identities } from "../screening/identities.ts";
import type { HistoryQuery } from "../screening/screening.repository.ts";
import { screeningInputs } from "../screening/screening-inputs.ts";

/** A stored screening as read: the input and signals as the database's JSON text, or parsed. */
export type RawScreening = {
  /** Milliseconds since the epoch. */
  at: number;
  input: ScreenEvent | string;
  signals: CollectedSignals | string | null;
};

/**
 * What the main thread needs to judge the event, short of the probes (`probesFor` there, from
 * the subject and identities: cheaper than carrying them) and the counts. Plain JSON: the
 * worker sends a batch as one JSON text, which the main thread parses several times faster
 * than it deserializes the same objects from a structured clone (measured: ~6 µs against
 * ~40 µs an event).
 */
export type Prepared = {
  subject: EventSubject;
  /** The event's own features, without the shared `base` (the main thread adds it back). */
  features: Omit<Features, "disposableDomains">;
  ids: Identities;
  history: HistoryQuery | null;
};

const parsed = <T>(value: T | string): T =>
  typeof value === "string" ? (JSON.parse(value) as T) : value;

export function prepareScreening(row: RawScreening, policy: Policy, base: Features): Prepared {
  const { subject, features, ids, history } = screeningInputs(
    parsed(row.input),
    policy,
    base,
    new Date(row.at),
    parsed(row.signals),
  );
  // The base (a set of thousands of domains) stays behind: it is the same for every event.
  const { disposableDomains: _base, ...own } = features;
  return { subject, features: own, ids, history };
}
