/**
 * `npm run bench:backtest`: "Test on history" over a million stored events. Fills a fresh
 * database with BENCH_EVENTS (default 1,000,000) screenings and charges (80 / 20) spread over
 * the last 30 days, plus counting rows from the 30 days before (seeds), for one account;
 * then starts Warden as its own process (compiled, as `npm start` runs it: bench-process.ts)
 * and, over real HTTP, starts a 30-day backtest with every rule on and polls it until done.
 * The time is from the start request to the poll that sees it done. A bare Fastify route
 * (scripts/bench/bare-server.ts) is loaded with autocannon in the same run, as the floor; the
 * harness (the bare route, the machine line) is in scripts/bench/, this benchmark's parts
 * (filling, the database, the run, the report) in scripts/bench/backtest/.
 *
 * PostgreSQL: BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres) is
 * the admin URL; the script creates and drops its own database. Embedded: BENCH_EMBEDDED_EVENTS
 * (default 200,000; PGlite is single-threaded in-process). `--db postgres|embedded` runs one;
 * `--json <file>` writes the results per the bench output contract.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openBenchDatabase } from "./bench/backtest/database.ts";
import { fill } from "./bench/backtest/fill.ts";
import { options } from "./bench/backtest/options.ts";
import { printRun, resultOf } from "./bench/backtest/report.ts";
import { runBacktest } from "./bench/backtest/run.ts";
import { bareRequestsPerSecond } from "./bench/bare.ts";
import { machineLine } from "./bench/machine.ts";
import { runBench } from "./bench/main.ts";
import { freePort, HOST, start, stop, waitUntil } from "./lib/bench-process.ts";

async function bench(kind: "postgres" | "embedded", workDir: string, bareReqPerSec: number) {
  const events = kind === "postgres" ? options.pgEvents : options.embeddedEvents;
  const label = kind === "postgres" ? "PostgreSQL" : "embedded (PGlite)";
  const { db, env, cleanup } = await openBenchDatabase(kind);
  try {
    console.error(`\n${label}: filling ${events.toLocaleString()} events`);
    const filling = performance.now();
    const { token, counts } = await fill(db, events);
    await db.close();
    console.error(`  filled in ${((performance.now() - filling) / 1000).toFixed(1)} s`);
    const port = await freePort();
    const base = `http://${HOST}:${port}`;
    const logFile = join(workDir, `${kind}-server.log`);
    const serverEnv = { LOG_LEVEL: "warn", HOST, ...env, PORT: String(port) };
    const child = start(`Warden (${kind})`, "server/main.ts", serverEnv, logFile);
    try {
      await waitUntil(
        `Warden (${kind})`,
        child,
        logFile,
        async () => (await fetch(`${base}/healthz`)).status < 500,
        180_000,
      );
      const run = await runBacktest(base, token, child.pid);
      const benchCase = { kind, label, events, counts };
      printRun(benchCase, run, bareReqPerSec);
      return resultOf(benchCase, run, bareReqPerSec);
    } finally {
      await stop(child);
    }
  } finally {
    await cleanup();
  }
}

async function main() {
  const workDir = await mkdtemp(join(tmpdir(), "warden-bench-backtest-logs-"));
  console.error(`bench:backtest: ${machineLine()}`);
  console.error("bare Fastify route: 5 s of autocannon, 10 connections");
  const bare = await bareRequestsPerSecond(workDir, { connections: 10, seconds: 5 });
  console.error(`  ${Math.round(bare)} req/s`);
  const results = [];
  for (const kind of options.databases) {
    if (kind !== "postgres" && kind !== "embedded") throw new Error(`unknown --db ${kind}`);
    results.push(await bench(kind, workDir, bare));
  }
  if (options.json) {
    await writeFile(options.json, `${JSON.stringify({ bench: "backtest", results }, null, 2)}\n`);
    console.error(`wrote ${options.json}`);
  }
}

runBench("bench:backtest", main);
