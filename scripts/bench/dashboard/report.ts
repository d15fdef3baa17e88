/**
 * bench:dashboard's tables, and the rows of the bench output contract it gathers over every
 * database benched (`--json`).
 */

import type { Measured } from "./cases.ts";
import type { HttpFigures } from "./http.ts";
import { CHUNK, OTHER_ROWS, ROWS, RUNS } from "./options.ts";

/** The contract's rows, gathered over every database benched. */
export const contractRows: unknown[] = [];

/** The service-level table of one database, and its contract rows. */
export function reportService(kind: string, results: Measured[], fillSeconds: number) {
  console.log(
    `\n${kind}, ${ROWS.toLocaleString()} transactions in one account, ${RUNS} runs each:`,
  );
  console.table(
    results.map((r) => ({
      case: r.name,
      "median ms": r.median.toFixed(1),
      "p95 ms": r.p95.toFixed(1),
      target: r.target ?? "",
    })),
  );
  for (const r of results) {
    contractRows.push({
      name: `${kind}, ${ROWS.toLocaleString()} rows: ${r.name} p95`,
      value: Number(r.p95.toFixed(2)),
      unit: "ms",
      target: r.target ?? "",
      bare: null,
      detail: { database: kind, rows: ROWS, runs: RUNS, median_ms: Number(r.median.toFixed(2)) },
    });
  }
  contractRows.push({
    name: `${kind}: fill ${ROWS.toLocaleString()} rows`,
    value: Number(fillSeconds.toFixed(1)),
    unit: "s",
    target: "",
    bare: null,
    detail: { database: kind, rows: ROWS + OTHER_ROWS, chunk: CHUNK },
  });
}

/** The table of the page's batched request over HTTP, and its contract rows. */
export function reportHttp({ sequential: one, throughput: load }: HttpFigures) {
  console.log(`\nPostgreSQL over HTTP, ${ROWS.toLocaleString()} transactions:`);
  console.table([
    {
      case: `dashboard batch (summary + list), ${one.runs} sequential`,
      "median ms": one.median.toFixed(1),
      "p95 ms": one.p95.toFixed(1),
      "req/s": "",
    },
    {
      case: `bare route, ${one.runs} sequential`,
      "median ms": one.bareMedian.toFixed(1),
      "p95 ms": one.bareP95.toFixed(1),
      "req/s": "",
    },
    {
      case: `dashboard batch, ${load.connections} connections ${load.seconds} s`,
      "median ms": "",
      "p95 ms": "",
      "req/s": load.rps.toFixed(0),
    },
    {
      case: `bare route, ${load.connections} connections ${load.seconds} s`,
      "median ms": "",
      "p95 ms": "",
      "req/s": load.bareRps.toFixed(0),
    },
  ]);
  const detail = { database: "PostgreSQL", rows: ROWS, transport: "HTTP, batched tRPC GET" };
  contractRows.push(
    {
      name: `PostgreSQL, ${ROWS.toLocaleString()} rows: dashboard load over HTTP p95`,
      value: Number(one.p95.toFixed(2)),
      unit: "ms",
      target: "",
      bare: null,
      detail: {
        ...detail,
        runs: one.runs,
        median_ms: Number(one.median.toFixed(2)),
        bare_median_ms: Number(one.bareMedian.toFixed(2)),
        bare_p95_ms: Number(one.bareP95.toFixed(2)),
      },
    },
    {
      name: `PostgreSQL, ${ROWS.toLocaleString()} rows: dashboard loads over HTTP`,
      value: Math.round(load.rps),
      unit: "req/s",
      target: "",
      bare: { value: Math.round(load.bareRps), unit: "req/s" },
      detail: {
        ...detail,
        connections: load.connections,
        seconds: load.seconds,
        p99_ms: load.p99,
      },
    },
  );
}
