import { describe, expect, it } from "vitest";
import { markdownTable, type Outcome } from "./report.ts";

const webhooks: Outcome = {
  bench: "webhooks",
  status: "ok",
  seconds: 40,
  results: [
    {
      name: "events/s (PostgreSQL)",
      value: 1234.4,
      unit: "events/s",
      target: ">= 1000",
      bare: { value: 24_680.8, unit: "req/s" },
    },
    { name: "p99 (PostgreSQL)", value: 12.345, unit: "ms", target: null, bare: null },
  ],
};

describe("markdownTable", () => {
  it.each([
    [
      "a throughput beside its bare route",
      2,
      "| webhooks | events/s (PostgreSQL) | 1,234 events/s | >= 1000 | 24,681 req/s | 5.0 % |",
    ],
    ["a latency without a share", 3, "| webhooks | p99 (PostgreSQL) | 12.3 ms | | | |"],
  ])("%s", (_, line, expected) => {
    expect(markdownTable([webhooks]).split("\n")[line]).toBe(expected);
  });

  it("names a benchmark that did not run, and why", () => {
    const table = markdownTable([
      {
        bench: "backtest",
        status: "missing",
        seconds: 0,
        error: "scripts/bench-backtest.ts not found",
      },
    ]);
    expect(table.split("\n")[2]).toBe(
      "| backtest | not measured: scripts/bench-backtest.ts not found | | | | |",
    );
  });

  it("gives no share when the units differ (a rate beside a latency)", () => {
    const table = markdownTable([
      {
        bench: "screen",
        status: "ok",
        seconds: 1,
        results: [{ name: "p99", value: 30, unit: "ms", bare: { value: 2, unit: "ms" } }],
      },
    ]);
    expect(table.split("\n")[2]).toBe("| screen | p99 | 30 ms | | 2 ms | |");
  });
});
