/**
 * `npm run bench:webhooks`: signed Stripe events a second through the real webhook path
 * (HTTP, signature check, inbox, merge, rules, commit), with Warden as a separate process
 * (compiled, as `npm start` runs it: bench-process.ts) and the load sent from this one over
 * real HTTP (autocannon), next to a bare Fastify route (scripts/bench/bare-server.ts) given the
 * same load. The harness (loads, the bare route, the machine line) is in scripts/bench/; this
 * benchmark's parts (load, runs, checks, report) in scripts/bench/webhooks/.
 *
 * For each database: a fresh data dir (and for PostgreSQL a fresh database on
 * BENCH_DATABASE_URL's or DATABASE_URL's server, default postgresql://postgres@127.0.0.1:5432/postgres,
 * dropped at the end); a merchant set up over HTTP (signup, confirm, login, Stripe key and
 * signing secret saved, every rule on); Stripe calls go to the Stripe stand-in
 * (scripts/lib/stripe-stand-in.ts) in this process. Then --warmup events, the server's
 * resident memory (VmRSS), --events events (built before the clock starts, each signed as it
 * is sent) from --connections connections, each sent as soon as the connection's previous
 * answer came back, and VmRSS again. The traffic: charges that
 * succeed, some updated, refunded, disputed, an early fraud warning now and then, a few risky
 * enough for the rules to refund (scripts/bench/webhooks/traffic.ts).
 *
 * The server's /metrics (METRICS_TOKEN set for the run) say how many events shared each ingest
 * statement during the measured part.
 *
 * Afterwards the server is stopped and the database read directly: every event sent must be
 * stored once, every charge must have a row whose newest event is the newest sent, and every
 * answer must have been 200 "applied". Anything else fails the run (exit code 1).
 *
 * Options: --db postgres|embedded (default both), --events 20000 (100000 for the memory
 * figure), --warmup 1000, --connections 16, --bare-seconds 10, --json <file>.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { machineLine } from "./bench/machine.ts";
import { runBench } from "./bench/main.ts";
import { options } from "./bench/webhooks/options.ts";
import { webhooksResults, webhooksTable } from "./bench/webhooks/report.ts";
import { benchBare, benchWarden } from "./bench/webhooks/runs.ts";
import { cleanups } from "./lib/bench-process.ts";
import { startStripeStandIn } from "./lib/stripe-stand-in.ts";

async function main() {
  const { databases, events, warmup, connections, json } = options;
  const started = new Date();
  const workDir = await mkdtemp(join(tmpdir(), "warden-bench-webhooks-"));
  cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  const stripe = await startStripeStandIn();
  cleanups.push(() => stripe.close());
  console.error(
    `bench:webhooks: ${databases.join(" and ")}; ${events} events after ${warmup} warm-up, ` +
      `${connections} connections; ${machineLine()}`,
  );
  console.error("\nbare Fastify route: starting");
  const bare = await benchBare(workDir);
  const runs = [];
  for (const kind of databases) runs.push(await benchWarden(kind, workDir, stripe.url));

  console.log(webhooksTable(bare, runs));
  if (json) {
    const results = webhooksResults(bare, runs);
    await writeFile(
      json,
      `${JSON.stringify({ bench: "webhooks", date: started.toISOString(), results }, null, 2)}\n`,
    );
    console.log(`Results: ${json}`);
  }
  if (runs.some((run) => run.problems.length > 0)) {
    console.error("\nbench:webhooks: events were lost or not applied (see above)");
    process.exitCode = 1;
  }
}

runBench("bench:webhooks", main);
