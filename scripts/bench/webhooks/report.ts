/** bench:webhooks' table and the results `npm run bench` collects (--json). */
import { machineLine } from "../machine.ts";
import { databaseLabel } from "../warden.ts";
import type { Load } from "./load.ts";
import { options } from "./options.ts";
import type { WardenRun } from "./runs.ts";

/** The Markdown table with what it measured under it. */
export function webhooksTable(bare: Load, runs: WardenRun[]): string {
  const rows = [
    "| database | events/s | bare route req/s | p50 / p99 | events per read / write statement | server RSS before → after | events | stored and applied |",
    "|---|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const run of runs) {
    rows.push(
      `| ${databaseLabel(run.database)} | ${run.measured.perSecond.toFixed(0)} | ` +
        `${bare.perSecond.toFixed(0)} | ${run.measured.p50.toFixed(1)} ms / ${run.measured.p99.toFixed(1)} ms | ` +
        `${run.batches.read.toFixed(1)} / ${run.batches.write.toFixed(1)} | ` +
        `${run.rss.beforeMb?.toFixed(0)} → ${run.rss.afterMb?.toFixed(0)} MB | ${run.measured.count} | ` +
        `${run.problems.length ? `NO: ${run.problems.join("; ")}` : "yes"} |`,
    );
  }
  return (
    `\n${rows.join("\n")}\n\n${options.connections} connections, each sending its next event when the previous was answered; ` +
    `the bare route got the same bodies for ${options.bareSeconds} s. Event mix: ${JSON.stringify(runs[0]?.types ?? {})}\n${machineLine()}`
  );
}

const TARGETS = { postgres: ">= 1000", embedded: ">= 400" };

/** Two figures a database: events a second, and the server's memory growth. */
export function webhooksResults(bare: Load, runs: WardenRun[]) {
  return runs.flatMap((run) => [
    {
      name: `webhook events/s (${run.database})`,
      value: Math.round(run.measured.perSecond),
      unit: "events/s",
      target: TARGETS[run.database],
      bare: { value: Math.round(bare.perSecond), unit: "req/s" },
      detail: {
        p50Ms: run.measured.p50,
        p99Ms: run.measured.p99,
        events: run.measured.count,
        connections: options.connections,
        eventsPerStatement: run.batches,
        charges: run.charges,
        types: run.types,
        stored: run.stored,
        problems: run.problems,
      },
    },
    {
      name: `server RSS growth over ${run.rss.events} webhooks (${run.database})`,
      value:
        run.rss.afterMb !== null && run.rss.beforeMb !== null
          ? Math.round((run.rss.afterMb - run.rss.beforeMb) * 10) / 10
          : -1,
      unit: "MB",
      target: "<= 50 (over 100000)",
      bare: null,
      detail: run.rss,
    },
  ]);
}
