/** bench:screen's table, its results file, the summary `npm run bench` collects, and notes. */
import { databaseLabel } from "../warden.ts";
import type { Loads } from "./loads.ts";
import { ms, options } from "./options.ts";
import type { WardenRun } from "./runs.ts";

const pair = (p50: number, p99: number) => `${ms(p50)} / ${ms(p99)}`;

/** The Markdown table: one row a database, then the bare route. */
export function screenTable(bare: Loads, runs: WardenRun[]): string {
  const at = options.rate.toLocaleString("en-US");
  const rows = [
    `| database | max req/s | bare route req/s | ratio | p50 / p99 at ${at} req/s offered, paced | answered req/s, paced | p50 / p99 at ${at} req/s, autocannon | server RSS after the loads (peak since start) | CPU a request at max: server + PostgreSQL | errors |`,
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const rss = (loads: Loads) =>
    loads.serverMemoryMb
      ? `${loads.serverMemoryMb.rssMb.toFixed(0)} MB (${loads.serverMemoryMb.peakMb.toFixed(0)} MB)`
      : "";
  for (const run of runs) {
    rows.push(
      `| ${databaseLabel(run.database)} | ${run.max.requestsPerSecond.toFixed(0)} | ` +
        `${bare.max.requestsPerSecond.toFixed(0)} | ${((run.max.requestsPerSecond / bare.max.requestsPerSecond) * 100).toFixed(1)} % | ` +
        `${pair(run.paced.p50, run.paced.p99)} | ${run.paced.achieved.toFixed(0)} | ${pair(run.rate.latency.p50, run.rate.latency.p99)} | ${rss(run)} | ${cpuEach(run)} | ${run.errors} |`,
    );
  }
  rows.push(
    `| (bare route) | ${bare.max.requestsPerSecond.toFixed(0)} | | | ${pair(bare.paced.p50, bare.paced.p99)} | ${bare.paced.achieved.toFixed(0)} | ` +
      `${pair(bare.rate.latency.p50, bare.rate.latency.p99)} | ${rss(bare)} | ${cpuEach(bare)} | ${bare.max.non2xx + bare.rate.non2xx + bare.paced.non2xx} |`,
  );
  return rows.join("\n");
}

/**
 * The CPU one request cost at the closed-loop maximum, in µs: the server process's, and its
 * PostgreSQL sessions' (embedded: the server is its database too).
 */
function cpuEach(loads: Loads): string {
  const rate = loads.max.requestsPerSecond;
  if (!rate) return "";
  const us = (percent: number) => Math.round((percent / 100 / rate) * 1e6);
  const server = `${us(loads.serverCpuPercent.max)} µs`;
  const db = loads.databaseCpuPercent?.max;
  return db === undefined || Number.isNaN(db) ? server : `${server} + ${us(db)} µs`;
}

/** The results in the shape `npm run bench` collects (scripts/bench.ts). */
export function summaryOf(bare: Loads, runs: WardenRun[]) {
  return {
    bench: "screen",
    results: runs.flatMap((run) => [
      {
        name: `screening, most req/s (${databaseLabel(run.database)})`,
        value: Math.round(run.max.requestsPerSecond),
        unit: "req/s",
        target: null,
        bare: { value: Math.round(bare.max.requestsPerSecond), unit: "req/s" },
        detail: { errors: run.errors, connections: options.connections },
      },
      {
        name: `screening p99 at ${options.rate} req/s paced (${databaseLabel(run.database)})`,
        value: Number(run.paced.p99.toFixed(1)),
        unit: "ms",
        target: null,
        bare: { value: Number(bare.paced.p99.toFixed(1)), unit: "ms" },
        detail: { p50: run.paced.p50, answeredPerSecond: Math.round(run.paced.achieved) },
      },
    ]),
  };
}

/** What the table's columns mean, printed under it. */
export function screenNotes(machineLine: string, file: string): string {
  const { connections, seconds, rate, rateConnections } = options;
  return (
    `${machineLine}. max: ${connections} connections, ${seconds} s. At ${rate} req/s: "paced" sends one ` +
    `request every ${(1000 / rate).toFixed(1)} ms whatever the answers (open loop); ` +
    `"autocannon" is overallRate ${rate} over ${rateConnections} connections (each sends its ` +
    `share of a second back to back). "answered req/s, paced": 2xx answers a second until the last came back (below 1,000 = the server fell behind, and its latency is its queue). Errors: non-2xx answers and socket errors, fill included.\n` +
    `Results: ${file}`
  );
}

/** The non-2xx answers and the server's logged problems of each run, on stdout. */
export function printProblems(runs: WardenRun[]): void {
  for (const run of runs) {
    for (const r of [run.max, run.rate]) {
      if (r.non2xxSamples.length)
        console.log(`${run.database} non-2xx: ${r.non2xxSamples.join("\n  ")}`);
    }
    if (run.serverProblems.length) {
      console.log(`\n${run.database}: the server logged (count, message):`);
      for (const p of run.serverProblems.slice(0, 10)) console.log(`  ${p.count}× ${p.message}`);
      console.log(`  full log: ${run.serverLog}`);
    }
  }
}
