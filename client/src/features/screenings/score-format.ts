/**
 * A screening's risk score as the console draws it (score-breakdown.tsx): one line per
 * contribution, the baseline first, each with its points and a bar laid end to end with the
 * others (a waterfall), so the last bar ends at the sum; signals that weigh nothing apart.
 */
import type { Contribution } from "../../../../shared/schemas/screening.ts";

/** The score's scale: the sum is held to it. */
const LOW = 0;
const HIGH = 100;

export type BreakdownLine = {
  signal: string;
  points: number;
  /** "+22", "−10" (a minus sign); the baseline as the number it starts at. */
  label: string;
  detail: string;
  kind: "baseline" | "up" | "down";
  /** Its bar: where it starts and how wide it is, in % of the track. */
  from: number;
  width: number;
};

export type Breakdown = {
  /** The baseline, then every signal with points, as the engine ordered them (largest first). */
  lines: BreakdownLine[];
  /** Signals measured that weigh nothing under the weights in force. */
  unweighted: Contribution[];
  /** What the points add up to, before the score is held to 0–100. */
  sum: number;
  /** The bound the score was held to, when the sum passed it. */
  held: 0 | 100 | null;
};

/** "+22", "−10", "0": a sign always, a real minus sign. */
export function formatPoints(points: number): string {
  if (points > 0) return `+${points}`;
  if (points < 0) return `−${-points}`;
  return "0";
}

/** The lines, bars and note of a score's breakdown; null when it was stored without one. */
export function breakdownOf(contributions: readonly Contribution[]): Breakdown | null {
  if (contributions.length === 0) return null;
  const shown = contributions.filter((c) => c.signal === "baseline" || c.points !== 0);
  const unweighted = contributions.filter((c) => c.signal !== "baseline" && c.points === 0);
  // The running sum after each line; the track stretches past 0–100 when the sum does.
  const running: number[] = [];
  let total = 0;
  for (const c of shown) {
    total += c.points;
    running.push(total);
  }
  const low = Math.min(LOW, ...running);
  const high = Math.max(HIGH, ...running);
  const at = (value: number) => ((value - low) / (high - low)) * 100;
  const lines = shown.map((c, i): BreakdownLine => {
    const after = running[i] ?? 0;
    const before = after - c.points;
    const baseline = c.signal === "baseline";
    return {
      signal: c.signal,
      points: c.points,
      label: baseline ? String(c.points).replace("-", "−") : formatPoints(c.points),
      detail: c.detail,
      kind: baseline ? "baseline" : c.points > 0 ? "up" : "down",
      from: round(at(Math.min(before, after))),
      width: round(at(Math.max(before, after)) - at(Math.min(before, after))),
    };
  });
  return { lines, unweighted, sum: total, held: total > HIGH ? HIGH : total < LOW ? LOW : null };
}

/** "The points add up to 112; the score is held to 100." */
export function heldSentence(b: Pick<Breakdown, "sum" | "held">): string | null {
  if (b.held === null) return null;
  return `The points add up to ${String(b.sum).replace("-", "−")}; the score is held to ${b.held}.`;
}

/** "3 more signals with no weight" */
export function unweightedSentence(n: number): string {
  return `${n} more signal${n === 1 ? "" : "s"} with no weight`;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
