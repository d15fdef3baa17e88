/**
 * The risk score (0–100): a sum you can read. Every signal (signals.ts) adds its points, its
 * value times its weight in log-odds, scaled so that 10 points double the odds of an attack;
 * the event type's baseline starts the sum at 50 + its intercept's points. Points are rounded
 * to whole numbers first and the score is their sum, held to 0–100, so the contributions the
 * merchant reads add up to the score (unless the sum passes 100 or falls under 0).
 *
 * No single kind of evidence blocks (decision 030). Against the type's thresholds: what every
 * newcomer carries (SIGNAL_FAMILY's `context`) counts only up to one point below review; each
 * family of evidence counts at most what takes the baseline to review; and a score at or over
 * block with fewer than two families behind it is held at review. Each cap and hold is a
 * contribution of its own, so the parts still add up to the score.
 */
import type { ScreenType } from "../../shared/schemas/screening.ts";
import type { Threshold, Weights } from "../../shared/score/weights.ts";
import { FAMILIES, type Family, SIGNAL_FAMILY, type Signal } from "./signals.ts";
import type { Contribution } from "./types.ts";

export type { Contribution };

/** Points per unit of log-odds: 10 points double the odds. */
export const POINTS_PER_LOG_ODDS = 10 / Math.LN2;
/** Where even odds sit on the scale. */
export const EVEN_ODDS = 50;

/**
 * A family counts toward a block from this many points (after its cap), what doubles the odds:
 * a hint of evidence (+6 for an address a little less name-like than most) is not a second
 * kind of it. At 5, a VPN provider's users were blocked on their network and such a hint.
 */
export const EVIDENCE_POINTS = 10;

export type Scored = {
  score: number;
  contributions: Contribution[];
  /** The families of evidence with at least EVIDENCE_POINTS behind the score. */
  families: Family[];
  /** The score reached block on fewer than two families and was held at review. */
  held: boolean;
};

/**
 * The score of one event and every contribution to it, largest first after the baseline, the
 * caps and the hold last. `threshold` is the one that acts (the merchant's, else the weights');
 * without one nothing is capped: the score is shown and never acts.
 */
export function scoreOf(
  type: ScreenType,
  signals: readonly Signal[],
  weights: Weights,
  threshold: Threshold | undefined = weights.thresholds[type],
): Scored {
  const intercept = weights.intercepts[type] ?? 0;
  const base = Math.round(EVEN_ODDS + POINTS_PER_LOG_ODDS * intercept);
  const parts: Contribution[] = [];
  const byFamily = new Map<Family | "context", number>();
  for (const s of signals) {
    const weight = weights.weights[s.signal] ?? 0;
    const points = Math.round(POINTS_PER_LOG_ODDS * weight * s.value);
    parts.push({ signal: s.signal, points, detail: s.detail, value: s.value });
    const family = SIGNAL_FAMILY[s.signal] ?? "context";
    byFamily.set(family, (byFamily.get(family) ?? 0) + points);
  }
  parts.sort((a, b) => Math.abs(b.points) - Math.abs(a.points));
  const caps: Contribution[] = [];
  const review = threshold?.review ?? null;
  if (review !== null) {
    const room = Math.max(0, review - 1 - base);
    const context = byFamily.get("context") ?? 0;
    if (context > room) {
      caps.push({
        signal: "cap_context",
        points: room - context,
        detail: `what every newcomer carries (a new account, device or domain) counts at most +${room}: it never reaches review alone`,
      });
      byFamily.set("context", room);
    }
    const most = Math.max(0, review - base);
    for (const family of FAMILIES) {
      const points = byFamily.get(family) ?? 0;
      if (points <= most) continue;
      caps.push({
        signal: `cap_${family}`,
        points: most - points,
        detail: `${family} evidence counts at most +${most}: one kind alone reaches review, never block`,
      });
      byFamily.set(family, most);
    }
  }
  const families = FAMILIES.filter((f) => (byFamily.get(f) ?? 0) >= EVIDENCE_POINTS);
  let sum = [...parts, ...caps].reduce((total, p) => total + p.points, base);
  let held = false;
  const block = threshold?.block ?? null;
  if (block !== null && families.length < 2 && Math.min(100, sum) >= block) {
    const to = Math.max(review ?? 0, block - 1);
    caps.push({
      signal: "held_at_review",
      points: to - sum,
      detail:
        families.length === 1
          ? `held at review: evidence from one family only (${families[0]})`
          : "held at review: no family of evidence behind the score",
    });
    sum = to;
    held = true;
  }
  return {
    score: Math.max(0, Math.min(100, sum)),
    contributions: [
      { signal: "baseline", points: base, detail: `where a ${type} starts` },
      ...parts,
      ...caps,
    ],
    families,
    held,
  };
}

/** The probability of an attack the score stands for (before rounding and the 0–100 hold). */
export function probabilityOf(score: number): number {
  return 1 / (1 + Math.exp(-(score - EVEN_ODDS) / POINTS_PER_LOG_ODDS));
}

/**
 * What a threshold makes of a score: block, review, or nothing. Given how many families of
 * evidence stand behind it (scoreOf), a block needs two; fewer hold it at review.
 */
export function scoreAction(
  score: number,
  threshold: Threshold | undefined,
  families: number = FAMILIES.length,
): "block" | "review" | null {
  if (!threshold) return null;
  if (threshold.block !== null && score >= threshold.block)
    return families >= 2 ? "block" : "review";
  if (threshold.review !== null && score >= threshold.review) return "review";
  return null;
}
