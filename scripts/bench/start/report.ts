/** bench:start's rows (the bench contract) and its table. */
import { machineLine } from "../machine.ts";
import type { CaseResult } from "./cases.ts";
import { RSS_DELAY_MS, RUNS } from "./measure.ts";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const TARGETS: Record<string, { start: string; rss: string }> = {
  "embedded, first start (empty data dir)": { start: "<= 6", rss: "<= 300" },
  "embedded, second start": { start: "<= 3", rss: "<= 300" },
  "postgres, first start (migrations applied)": { start: "<= 3", rss: "<= 150" },
  "postgres, second start": { start: "<= 3", rss: "<= 150" },
};

/** Two contract rows a case: the median start time and the median RSS. */
export function results(cases: CaseResult[]) {
  return cases.flatMap(({ name, samples }) => {
    const target = TARGETS[name] ?? { start: "", rss: "" };
    const detail = {
      runs: samples.map((s) => ({
        startS: round(s.startMs / 1000),
        rssMb: round(s.rssMb),
        peakMb: round(s.peakMb),
        serverCpuS: s.cpuS,
      })),
      medianServerCpuS: round(median(samples.map((s) => s.cpuS))),
      serverCommand: samples[0]?.command ?? "",
    };
    return [
      {
        name: `${name}: spawn to first 200`,
        value: round(median(samples.map((s) => s.startMs)) / 1000),
        unit: "s",
        target: target.start,
        bare: null,
        detail,
      },
      {
        name: `${name}: RSS ${RSS_DELAY_MS / 1000} s after`,
        value: round(median(samples.map((s) => s.rssMb))),
        unit: "MB",
        target: target.rss,
        bare: null,
        detail,
      },
      {
        name: `${name}: peak RSS until then`,
        value: round(median(samples.map((s) => s.peakMb))),
        unit: "MB",
        target: target.rss,
        bare: null,
        detail: { ...detail, peak: true },
      },
    ];
  });
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The medians and each run's figures, with the machine. */
export function printTable(rows: ReturnType<typeof results>) {
  console.log(
    `\nnpm start, median of ${RUNS} (RSS read ${RSS_DELAY_MS / 1000} s after the answer); ${machineLine()}`,
  );
  console.table(
    rows.map((row) => ({
      case: row.name,
      value: `${row.value} ${row.unit}`,
      target: row.target,
      runs: row.detail.runs
        .map((r) => (row.unit === "s" ? r.startS : "peak" in row.detail ? r.peakMb : r.rssMb))
        .join(" / "),
      "server CPU s": row.unit === "s" ? row.detail.medianServerCpuS : "",
    })),
  );
}
