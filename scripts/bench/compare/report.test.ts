import { describe, expect, it } from "vitest";
import {
  compareTable,
  median,
  percentOfBare,
  type Round,
  roundRatios,
  spread,
  summarize,
} from "./report.ts";

describe("median", () => {
  it.each([
    ["an odd count: the middle value", [3, 1, 2], 2],
    ["an even count: the mean of the two middle values", [4, 1, 3, 2], 2.5],
    ["one value", [7], 7],
    ["none", [], Number.NaN],
  ])("%s", (_, values, expected) => {
    expect(median(values)).toBe(expected);
  });
});

describe("spread", () => {
  it("skips what was not measured", () => {
    expect(spread([5, null, 1, undefined, 3])).toEqual({ median: 3, min: 1, max: 5 });
  });
  it("is null when nothing was measured", () => {
    expect(spread([null, undefined])).toBeNull();
  });
});

describe("roundRatios", () => {
  it("divides head by base within each round, skipping a round without both or with a base of 0", () => {
    expect(
      roundRatios([
        { base: 1000, head: 1100 },
        { base: 800, head: 600 },
        { base: null, head: 500 },
        { base: 0, head: 3 },
      ]),
    ).toEqual([1.1, 0.75]);
  });
});

describe("percentOfBare", () => {
  it.each([
    [1500, 20_000, 7.5],
    [null, 20_000, null],
    [1500, 0, null],
  ])("%s of %s is %s %", (value, bare, expected) => {
    expect(percentOfBare(value, bare)).toBe(expected);
  });
});

// Three rounds on PostgreSQL: the base 1,000, 900, 1,100 screenings/s, the head 10 %, 20 %
// and 0 % faster in the same rounds; the bare route 10,000, 9,000, 11,000.
const rounds: Round[] = [
  [1000, 1100, 10_000],
  [900, 1080, 9000],
  [1100, 1100, 11_000],
].map(([base, head, bare], i) => ({
  round: i + 1,
  bare: { screenClosed: bare },
  runs: {
    postgres: {
      base: { closedPerSecond: base, pacedP99: 2 + i },
      head: { closedPerSecond: head, pacedP99: 3 + i },
    },
  },
}));

describe("summarize", () => {
  const rows = summarize(rounds, "postgres");

  it("gives each tree's median and range, and the median of the rounds' ratios", () => {
    expect(rows[0]).toMatchObject({
      key: "closedPerSecond",
      base: { median: 1000, min: 900, max: 1100 },
      head: { median: 1100, min: 1080, max: 1100 },
    });
    expect(rows[0]?.ratio?.median).toBeCloseTo(1.1);
    expect(rows[0]?.ratio?.min).toBeCloseTo(1);
    expect(rows[0]?.ratio?.max).toBeCloseTo(1.2);
  });

  it("reads a throughput against the bare route of its own round", () => {
    // base 10 %, 10 %, 10 %; head 11 %, 12 %, 10 %.
    expect(rows[0]?.baseOfBare).toBeCloseTo(10);
    expect(rows[0]?.headOfBare).toBeCloseTo(11);
  });

  it("gives no share of the bare route for a latency, and no row for what was not measured", () => {
    expect(rows.map((row) => row.key)).toEqual(["closedPerSecond", "pacedP99"]);
    expect(rows[1]).toMatchObject({ baseOfBare: null, headOfBare: null });
  });

  it("is empty for a database that did not run", () => {
    expect(summarize(rounds, "embedded")).toEqual([]);
  });
});

describe("compareTable", () => {
  it("prints medians with their ranges, the ratio and the shares of the bare route", () => {
    const lines = compareTable("PostgreSQL", summarize(rounds, "postgres")).split("\n");
    expect(lines[2]).toBe(
      "| screenings/s, closed loop | 1,000 (900–1,100) | 1,100 (1,080–1,100) | 1.100 (1.000–1.200) | 10.0 % / 11.0 % |",
    );
    expect(lines[3]).toBe(
      "| p99 ms, paced | 3.00 (2.00–4.00) | 4.00 (3.00–5.00) | 1.333 (1.250–1.500) |  |",
    );
  });
});
