/**
 * What a proposal would do that a member must confirm before adopting it, pure: read from the
 * proposal's weights and the backtest stored with it, so a list, the API and the adopt check
 * all say the same. Three warnings (issue 41: labels from one API key taught a fit that let an
 * obvious bot signup through, and nothing on the page said so):
 * - stops_blocking: of the screenings of the last RECENT_DAYS days the weights in force block,
 *   the proposal would let more than STOPS_BLOCKING_SHARE through.
 * - attack_signal_negative: a signal the shipped weights count toward abuse (a positive
 *   weight) would take points off instead: more than half a point per unit, so at least a
 *   whole point off a screening that shows it once the points are rounded.
 * - one_source: one member or one API key gave more than ONE_SOURCE_SHARE of the labelled
 *   screenings it learnt from. Past half, that source's labels outweigh all the others
 *   together, so a careless labeller or a leaked key decides the weights alone. Stripe's own
 *   verdicts (disputes, settled charges) are no one source: no member or key can forge them.
 */
import {
  type ModelMetrics,
  type ModelWarning,
  ONE_SOURCE_SHARE,
  STOPS_BLOCKING_SHARE,
  type WeightChange,
} from "../../../shared/schemas/score-models.ts";
import type { Weights } from "../../../shared/score/weights.ts";
import { POINTS_PER_LOG_ODDS } from "../../engine/score.ts";
import { SIGNAL_KEYS } from "../../engine/signals.ts";

/** Points per unit below which a signal counts against abuse. */
const NEGATIVE_POINTS = -0.5;

const n = (value: number) => value.toLocaleString("en-US");
const percent = (share: number) => `${Math.round(share * 100)}%`;
const points = (weight: number) => Math.round(weight * POINTS_PER_LOG_ODDS * 10) / 10;
const signed = (p: number) => (p > 0 ? `+${p.toFixed(1)}` : p < 0 ? `−${(-p).toFixed(1)}` : "0");

function stopsBlocking(recent: ModelMetrics["recent"]): ModelWarning | null {
  const now = recent.current.blocked;
  if (now === 0) return null;
  // Proposals stored before the overlap was counted: at most as many as both block.
  const still = recent.still_blocked ?? Math.min(now, recent.proposed.blocked);
  const stopped = now - still;
  if (stopped / now <= STOPS_BLOCKING_SHARE) return null;
  return {
    code: "stops_blocking",
    message: `These weights would let through ${n(stopped)} of the ${n(now)} screenings (${percent(stopped / now)}) the weights in force blocked in the last ${recent.days} days. Adopt them only if you know those screenings were not abuse.`,
    days: recent.days,
    blocked_now: now,
    still_blocked: still,
  };
}

function attackSignalsNegative(
  proposed: Weights,
  shipped: Weights,
  changes: readonly WeightChange[],
): ModelWarning | null {
  const moved = new Map(changes.map((c) => [c.signal, c]));
  const signals = SIGNAL_KEYS.flatMap((signal): WeightChange[] => {
    const weight = proposed.weights[signal] ?? 0;
    if ((shipped.weights[signal] ?? 0) <= 0) return [];
    if (weight * POINTS_PER_LOG_ODDS >= NEGATIVE_POINTS) return [];
    const to = points(weight);
    // Not among the changes: it was as negative in the weights in force already.
    return [{ signal, from: moved.get(signal)?.from ?? to, to }];
  }).sort((a, b) => a.to - b.to);
  if (signals.length === 0) return null;
  const listed = signals
    .map((c) => {
      const now = c.from === c.to ? signed(c.to) : `${signed(c.from)} → ${signed(c.to)}`;
      return `${c.signal.replace(/_/g, " ")} ${now} points`;
    })
    .join(", ");
  return {
    code: "attack_signal_negative",
    message: `These weights would count ${signals.length === 1 ? "a sign" : "signs"} of abuse as evidence against it: ${listed}. A screening that shows ${signals.length === 1 ? "it" : "them"} would score lower, not higher. Labels that call such screenings legitimate, by mistake or on purpose, do this.`,
    signals,
  };
}

function oneSource(labels: ModelMetrics["labels"]): ModelWarning | null {
  const top = labels.top_source;
  const of = labels.fraud + labels.legitimate;
  if (!top || of === 0 || top.labels / of <= ONE_SOURCE_SHARE) return null;
  const share = top.labels / of;
  const who = top.kind === "api_key" ? `one API key, ${top.name}` : `one member, ${top.name}`;
  return {
    code: "one_source",
    message: `${n(top.labels)} of the ${n(of)} labelled screenings these weights learnt from (${percent(share)}) were labelled by ${who}. If those labels are wrong, or the ${top.kind === "api_key" ? "key is in the wrong hands" : "account is in the wrong hands"}, so are these weights.`,
    source: { kind: top.kind, id: top.id, name: top.name },
    labels: top.labels,
    of,
    share: Math.round(share * 1000) / 1000,
  };
}

/** A proposal's warnings (none without its backtest but a negative signal's). */
export function warningsOf(
  proposed: Weights,
  metrics: ModelMetrics | null,
  shipped: Weights,
): ModelWarning[] {
  const warnings = [
    metrics ? stopsBlocking(metrics.recent) : null,
    attackSignalsNegative(proposed, shipped, metrics?.changes ?? []),
    metrics ? oneSource(metrics.labels) : null,
  ];
  return warnings.filter((w): w is ModelWarning => w !== null);
}
