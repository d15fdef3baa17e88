/**
 * The risk score (0–100): a sum you can read. Every signal (signals.ts) adds its points, its
 * value times its weight in log-odds, scaled so that 10 points double the odds of an attack;
 * the event type's baseline starts the sum at 50 + its intercept's points. Points are rounded
 * to whole numbers first and the score is their sum, held to 0–100, so the contributions the
 * merchant reads add up to the score (unless the sum passes 100 or falls under 0).
 */
import type { ScreenType } from "../../shared/schemas/screening.ts";
import type { Threshold, Weights } from "../../shared/score/weights.ts";
import type { Signal } from "./signals.ts";
import type { Contribution } from "./types.ts";

export type { Contribution };

/** Points per unit of log-odds: 10 points double the odds. */
export const POINTS_PER_LOG_ODDS = 10 / Math.LN2;
/** Where even odds sit on the scale. */
export const EVEN_ODDS = 50;

export type Scored = { score: number; contributions: Contribution[] };

/** The score of one event and every contribution to it, largest first after the baseline. */
export function scoreOf(type: ScreenType, signals: readonly Signal[], weights: Weights): Scored {
  const intercept = weights.intercepts[type] ?? 0;
  const base = Math.round(EVEN_ODDS + POINTS_PER_LOG_ODDS * intercept);
  const parts: Contribution[] = [];
  for (const s of signals) {
    const weight = weights.weights[s.signal] ?? 0;
    parts.push({
      signal: s.signal,
      points: Math.round(POINTS_PER_LOG_ODDS * weight * s.value),
      detail: s.detail,
      value: s.value,
    });
  }
  parts.sort((a, b) => Math.abs(b.points) - Math.abs(a.points));
  const sum = parts.reduce((total, p) => total + p.points, base);
  return {
    score: Math.max(0, Math.min(100, sum)),
    contributions: [
      { signal: "baseline", points: base, detail: `where a ${type} starts` },
      ...parts,
    ],
  };
}

/** The probability of an attack the score stands for (before rounding and the 0–100 hold). */
export function probabilityOf(score: number): number {
  return 1 / (1 + Math.exp(-(score - EVEN_ODDS) / POINTS_PER_LOG_ODDS));
}

/** What a threshold makes of a score: block, review, or nothing. */
export function scoreAction(
  score: number,
  threshold: Threshold | undefined,
): "block" | "review" | null {
  if (!threshold) return null;
  if (threshold.block !== null && score >= threshold.block) return "block";
  if (threshold.review !== null && score >= threshold.review) return "review";
  return null;
}
