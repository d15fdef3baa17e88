/** The alert chart's lines and its sentence for screen readers, as tables. */
import { describe, expect, it } from "vitest";
import type { AlertPoint } from "../../../../shared/schemas/alerts.ts";
import { chartLines, chartSummary } from "./alert-chart-lines.ts";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString();
const points = (values: number[], usual: number | null = null): AlertPoint[] =>
  values.map((value, i) => ({ at: at(i * 5), value, usual }));
const clock = (iso: string) => iso.slice(11, 16);

describe("chartLines", () => {
  it.each<[string, AlertPoint[], { value: string; usual: string | null; top: number }]>([
    [
      "scales the highest value to the top",
      points([0, 5, 10]),
      { value: "M0,100L50,50L100,0", usual: null, top: 10 },
    ],
    [
      "draws the usual line where there is one, on the same scale",
      points([0, 4], 2),
      { value: "M0,100L100,0", usual: "M0,50L100,50", top: 4 },
    ],
    [
      "keeps a flat zero series on the axis (top at least 1)",
      points([0, 0]),
      { value: "M0,100L100,100", usual: null, top: 1 },
    ],
    [
      "lets a usual value above every value set the top",
      points([1, 1], 4),
      { value: "M0,75L100,75", usual: "M0,0L100,0", top: 4 },
    ],
    ["draws one point at the left edge", points([3]), { value: "M0,0", usual: null, top: 3 }],
  ])("%s", (_, series, expected) => {
    expect(chartLines(series, 100, 100)).toEqual(expected);
  });
});

describe("chartSummary", () => {
  it.each<[AlertPoint[], string]>([
    [
      points([0, 12, 3], 0.2),
      "From 10:00 to 10:10, per 5 minutes: highest 12 at 10:05, last 3; usual 0.2.",
    ],
    [
      points([1, 2]),
      "From 10:00 to 10:05, per 5 minutes: highest 2 at 10:05, last 2; no usual value yet.",
    ],
    [[], "No chart."],
  ])("%j: %s", (series, text) => {
    expect(chartSummary(series, clock)).toBe(text);
  });
});
