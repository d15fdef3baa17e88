import { describe, expect, it } from "vitest";
import { minuteSeries, minuteSpan } from "./minute-series.ts";

const NOW = new Date("2026-11-26T12:34:56.789Z");
/** Minutes since the epoch of a UTC time. */
const m = (iso: string) => Math.floor(Date.parse(iso) / 60_000);

describe("minuteSpan", () => {
  it("runs from 59 minutes before the current minute to its end", () => {
    const span = minuteSpan(NOW);
    expect(span.from.toISOString()).toBe("2026-11-26T11:35:00.000Z");
    expect(span.to.toISOString()).toBe("2026-11-26T12:35:00.000Z");
    expect(span.first).toBe(m("2026-11-26T11:35:00Z"));
  });
});

describe("minuteSeries", () => {
  it.each([
    { name: "no counts: 60 empty minutes", counts: [], at: null, totals: [0, 0, 0] },
    {
      name: "the current minute is the last",
      counts: [{ minute: m("2026-11-26T12:34:00Z"), decision: "allow", n: 3 }],
      at: [59, { allow: 3, review: 0, block: 0 }],
      totals: [3, 0, 0],
    },
    {
      name: "the first minute of the span is the first",
      counts: [
        { minute: m("2026-11-26T11:35:00Z"), decision: "block", n: 2 },
        { minute: m("2026-11-26T11:35:00Z"), decision: "review", n: 1 },
      ],
      at: [0, { allow: 0, review: 1, block: 2 }],
      totals: [0, 1, 2],
    },
    {
      name: "a minute before the span or after now is left out",
      counts: [
        { minute: m("2026-11-26T11:34:00Z"), decision: "allow", n: 5 },
        { minute: m("2026-11-26T12:35:00Z"), decision: "allow", n: 5 },
      ],
      at: null,
      totals: [0, 0, 0],
    },
    {
      name: "an unknown decision is left out",
      counts: [{ minute: m("2026-11-26T12:00:00Z"), decision: "maybe", n: 4 }],
      at: null,
      totals: [0, 0, 0],
    },
  ] as const)("$name", ({ counts, at, totals }) => {
    const series = minuteSeries(NOW, counts);
    expect(series.minutes).toHaveLength(60);
    expect(series.minutes[0]?.minute).toBe("2026-11-26T11:35:00.000Z");
    expect(series.minutes[59]?.minute).toBe("2026-11-26T12:34:00.000Z");
    if (at) expect(series.minutes[at[0]]).toMatchObject(at[1]);
    expect([series.totals.allow, series.totals.review, series.totals.block]).toEqual(totals);
  });
});
