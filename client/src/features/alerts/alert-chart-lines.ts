/**
 * The lines of an alert event's chart: its series in 5-minute buckets and, where it has one,
 * the usual value, scaled into a drawing `width` × `height` (y grows downwards); and the same
 * figures in one sentence for screen readers. Pure.
 */
import type { AlertPoint } from "../../../../shared/schemas/alerts.ts";

export type ChartLines = {
  /** The value line's SVG path ("M0,40L10,35…"). */
  value: string;
  /** The usual line's path, or null when no point has a usual value. */
  usual: string | null;
  /** The value at the top of the drawing. */
  top: number;
};

const round = (n: number) => Math.round(n * 10) / 10;

export function chartLines(
  points: readonly AlertPoint[],
  width: number,
  height: number,
): ChartLines {
  const top = Math.max(1, ...points.map((p) => Math.max(p.value, p.usual ?? 0)));
  const step = points.length > 1 ? width / (points.length - 1) : 0;
  const x = (i: number) => round(i * step);
  const y = (v: number) => round(height - (v / top) * height);
  const path = (values: (number | null)[]) =>
    values
      .map((v, i) => (v === null ? null : `${x(i)},${y(v)}`))
      .filter((at): at is string => at !== null)
      .map((at, i) => `${i === 0 ? "M" : "L"}${at}`)
      .join("");
  const hasUsual = points.some((p) => p.usual !== null);
  return {
    value: path(points.map((p) => p.value)),
    usual: hasUsual ? path(points.map((p) => p.usual)) : null,
    top,
  };
}

/** "From 10:05 to 11:55, per 5 minutes: highest 12 at 11:50, last 12; usual 0.2." */
export function chartSummary(
  points: readonly AlertPoint[],
  clock: (iso: string) => string,
): string {
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return "No chart.";
  const highest = points.reduce((best, p) => (p.value > best.value ? p : best), first);
  const usual = last.usual ?? points.find((p) => p.usual !== null)?.usual ?? null;
  return (
    `From ${clock(first.at)} to ${clock(last.at)}, per 5 minutes: ` +
    `highest ${highest.value} at ${clock(highest.at)}, last ${last.value}` +
    (usual === null ? "; no usual value yet." : `; usual ${usual}.`)
  );
}
