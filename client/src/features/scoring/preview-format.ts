/** What the preview shows: four figures, today against proposed, from the server's counts. */
import type { PreviewCounts } from "../../../../shared/schemas/score-thresholds.ts";
import type { ScreenType } from "../../../../shared/schemas/screening.ts";
import { formatType } from "../screenings/screening-format.ts";

/** "trial_start" reads "Trial start". */
export function typeName(type: ScreenType): string {
  const text = formatType(type);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export type Metric = {
  key: "blocked" | "reviewed" | "fraud_caught" | "legitimate_stopped";
  label: string;
  now: number;
  proposed: number;
  /** Out of how many (the labelled ones), when it is a share. */
  of: number | null;
};

export function metricsOf(counts: PreviewCounts): Metric[] {
  const { now, proposed } = counts;
  return [
    { key: "blocked", label: "Blocked", now: now.blocked, proposed: proposed.blocked, of: null },
    {
      key: "reviewed",
      label: "Reviewed",
      now: now.reviewed,
      proposed: proposed.reviewed,
      of: null,
    },
    {
      key: "fraud_caught",
      label: "Labelled fraud caught",
      now: now.fraud_blocked + now.fraud_reviewed,
      proposed: proposed.fraud_blocked + proposed.fraud_reviewed,
      of: counts.fraud,
    },
    {
      key: "legitimate_stopped",
      label: "Labelled legitimate stopped",
      now: now.legitimate_blocked + now.legitimate_reviewed,
      proposed: proposed.legitimate_blocked + proposed.legitimate_reviewed,
      of: counts.legitimate,
    },
  ];
}

/** "12 → 30" or "12" when nothing changes. */
export function changeText(now: number, proposed: number): string {
  return now === proposed
    ? now.toLocaleString("en-US")
    : `${now.toLocaleString("en-US")} → ${proposed.toLocaleString("en-US")}`;
}

/** A bar's width in percent of the larger of the pair (0 for 0). */
export function barWidth(value: number, pair: readonly [number, number]): number {
  const max = Math.max(...pair);
  return max === 0 ? 0 : Math.round((value / max) * 100);
}
