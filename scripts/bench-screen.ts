/**
 * `npm run bench:screen`: POST /api/v1/screen over real HTTP against the real server, run as a
 * separate process (compiled, as `npm start` runs it: bench-process.ts), on PostgreSQL and on
 * the embedded database, next to a bare Fastify route (scripts/bench/bare-server.ts) in a process
 * of its own. The harness (loads, the bare route, the machine line) is in scripts/bench/; this
 * benchmark's parts (traffic, fill, loads, runs, report) in scripts/bench/screen/.
 *
 * For each database: a fresh data dir (and for PostgreSQL a fresh database on
 * BENCH_DATABASE_URL's server, default postgresql://postgres@127.0.0.1:5432/postgres, dropped
 * at the end); set up like a merchant over HTTP (signup, the link from DATA_DIR/outbox,
 * confirm, login, all fifteen rules and two templates on, an API key); the velocity windows
 * filled with --fill screenings; then autocannon from this process: the most requests a
 * second with --connections connections, and --rate requests a second offered with
 * autocannon's overallRate. autocannon's rate limit sends each connection's share of a second
 * back to back, so its latencies include that burst's own queue; a paced open-loop load at the
 * same rate (scripts/bench/paced-load.ts) gives the latency a steady 1,000 requests a second
 * sees. Both are reported; the bare route gets the same three loads as a floor.
 *
 * Options: --db postgres|embedded (default both), --fill 20000, --stored 0 (screenings of
 * history put straight into PostgreSQL first, spread over 90 days: scripts/bench/screen/stored.ts),
 * --stored-digests keyed|legacy (how that history is hashed; keyed by default), --duration 12
 * (seconds per load), --connections 32, --rate 1000, --rate-connections 10. Prints a Markdown table and
 * writes bench/results/screen-<date>.json; --json <file> also writes the summary `npm run bench`
 * collects. Traffic goes to 127.0.0.1 only. Every child process
 * is stopped at the end, on error and on Ctrl-C.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitCommit, loadAverage, machineLine, machine as thisMachine } from "./bench/machine.ts";
import { runBench } from "./bench/main.ts";
import { options } from "./bench/screen/options.ts";
import { printProblems, screenNotes, screenTable, summaryOf } from "./bench/screen/report.ts";
import { benchBare, benchWarden } from "./bench/screen/runs.ts";
import { MIX } from "./bench/screen/traffic/stream.ts";
import { cleanups, ROOT } from "./lib/bench-process.ts";

async function main() {
  const { databases, fill, seconds, connections, rate, rateConnections } = options;
  const started = new Date();
  const stamp = started.toISOString().slice(0, 16).replace(":", "");
  const resultsDir = join(ROOT, "bench", "results");
  await mkdir(resultsDir, { recursive: true });
  const workDir = await mkdtemp(join(tmpdir(), "warden-bench-screen-"));
  cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  const machine = thisMachine();
  console.error(
    `bench:screen: ${databases.join(" and ")}; fill ${fill}; ${seconds} s per load; ${machineLine(machine)}`,
  );

  console.error("\nbare Fastify route: starting");
  const bare = await benchBare(workDir);
  const runs = [];
  for (const kind of databases) runs.push(await benchWarden(kind, workDir, resultsDir, stamp));

  const table = screenTable(bare, runs);
  const file = join(resultsDir, `screen-${stamp}.json`);
  const results = {
    date: started.toISOString(),
    commit: gitCommit(),
    machine: { ...machine, loadavgAtEnd: loadAverage() },
    options: {
      fill,
      stored: options.stored,
      seconds,
      connections,
      rate,
      rateConnections,
      mix: Object.fromEntries(MIX),
    },
    bare,
    runs,
    table,
  };
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  if (options.json)
    await writeFile(options.json, `${JSON.stringify(summaryOf(bare, runs), null, 2)}\n`);
  console.log(`\n${table}\n\n${screenNotes(machineLine(machine), file)}`);
  printProblems(runs);
}

runBench("bench:screen", main);
