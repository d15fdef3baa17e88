/**
 * A proposal's backtest and weight changes as the Risk score page words them (score-models.tsx):
 * pure, so each sentence is table-tested.
 */
import type { ModelMetrics, WarningCode } from "../../../../shared/schemas/score-models.ts";
import type { Thresholds } from "../../../../shared/score/weights.ts";

const n = (value: number) => value.toLocaleString("en-US");

/** "12 of 61 (20%)"; "0 of 0" without a share. */
export function share(part: number, of: number): string {
  return of > 0 ? `${n(part)} of ${n(of)} (${Math.round((part / of) * 100)}%)` : `${n(part)} of 0`;
}

export type BacktestRow = { key: string; label: string; current: string; proposed: string };

/** The backtest table: labelled screenings (cross-validated), then the last days' counts. */
export function backtestRows(m: ModelMetrics): BacktestRow[] {
  const { current, proposed } = m.labelled;
  const { fraud, legitimate } = m.labels;
  const caught = (side: typeof current) => side.fraud.blocked + side.fraud.reviewed;
  const row = (key: string, label: string, of: number, pick: (side: typeof current) => number) => ({
    key,
    label,
    current: share(pick(current), of),
    proposed: share(pick(proposed), of),
  });
  const recent = m.recent;
  return [
    row("fraud-caught", "Labelled fraud caught (blocked or reviewed)", fraud, caught),
    row("fraud-blocked", "Labelled fraud blocked", fraud, (s) => s.fraud.blocked),
    row(
      "legitimate-blocked",
      "Labelled legitimate blocked",
      legitimate,
      (s) => s.legitimate.blocked,
    ),
    row(
      "legitimate-reviewed",
      "Labelled legitimate reviewed",
      legitimate,
      (s) => s.legitimate.reviewed,
    ),
    {
      key: "recent-blocked",
      label: `All screenings of the last ${recent.days} days blocked`,
      current: share(recent.current.blocked, recent.screenings),
      proposed: share(recent.proposed.blocked, recent.screenings),
    },
    {
      key: "recent-reviewed",
      label: `All screenings of the last ${recent.days} days reviewed`,
      current: share(recent.current.reviewed, recent.screenings),
      proposed: share(recent.proposed.reviewed, recent.screenings),
    },
  ];
}

/** Where the labels came from: "61 fraud and 50 legitimate (100 labels, 10 review decisions, 1 from Stripe)". */
export function labelsText(labels: ModelMetrics["labels"]): string {
  const { from } = labels;
  const parts = [
    from.labels > 0 && `${n(from.labels)} label${from.labels === 1 ? "" : "s"}`,
    from.reviews > 0 && `${n(from.reviews)} review decision${from.reviews === 1 ? "" : "s"}`,
    from.stripe > 0 && `${n(from.stripe)} from Stripe`,
  ].filter(Boolean);
  const capped = labels.capped ? ", the newest only" : "";
  return `${n(labels.fraud)} fraud and ${n(labels.legitimate)} legitimate screenings (${parts.join(", ")}${capped})`;
}

/** "signup review 65, block 80; checkout block 90", or null when none is in force. */
export function thresholdsText(thresholds: Thresholds): string | null {
  const parts = Object.entries(thresholds).flatMap(([type, t]) => {
    if (!t) return [];
    const limits = [
      t.review !== null && `review ${t.review}`,
      t.block !== null && `block ${t.block}`,
    ];
    return [`${type.replace(/_/g, " ")} ${limits.filter(Boolean).join(", ")}`];
  });
  return parts.length > 0 ? parts.join("; ") : null;
}

/** "bot_user_agent" → "bot user agent". */
export const signalName = (signal: string) => signal.replace(/_/g, " ");

/** "+7.2", "−14.4" (a real minus sign), "0". */
export function pointsText(points: number): string {
  if (points > 0) return `+${points.toFixed(1)}`;
  if (points < 0) return `−${(-points).toFixed(1)}`;
  return "0";
}

/** Each warning's heading, and what a member ticks to confirm it. */
export const WARNING_TEXT: Record<WarningCode, { title: string; confirm: string }> = {
  stops_blocking: {
    title: "Stops blocking most of what is blocked today",
    confirm: "I know the screenings these weights would let through were not abuse",
  },
  attack_signal_negative: {
    title: "Counts signs of abuse against it",
    confirm: "I know why these signs of abuse should lower the score here",
  },
  one_source: {
    title: "Learnt mostly from one source",
    confirm: "I trust the labels of this source",
  },
};

/** "1 warning to confirm", "3 warnings to confirm". */
export const warningsText = (count: number) =>
  `${count} warning${count === 1 ? "" : "s"} to confirm before adopting`;

/** What the history says an adopter confirmed: "confirmed: learnt mostly from one source". */
export function confirmedText(codes: readonly WarningCode[]): string | null {
  if (codes.length === 0) return null;
  return `confirmed: ${codes.map((code) => WARNING_TEXT[code].title.toLowerCase()).join("; ")}`;
}
