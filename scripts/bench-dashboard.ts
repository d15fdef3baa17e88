/**
 * `npm run bench:dashboard`: the dashboard's load time with a million stored transactions.
 * Fills a fresh database with BENCH_ROWS (default 1,000,000) charges for one account, plus
 * some for a second account, then times the real transactions service: the whole dashboard
 * load (what the page fires on load, in parallel as its one batched tRPC request runs it: the
 * first page of 50 and the 30-day summary that feeds the totals and the chart), then each
 * part alone, filtered pages, search and a deep page (median and p95).
 *
 * Runs on the embedded database (in a temporary data dir) and on PostgreSQL when
 * BENCH_DATABASE_URL or DATABASE_URL is set, in a database it creates and drops itself;
 * `--db embedded|postgres` runs only one. BENCH_RUNS (default 50) sets the timed runs per
 * case. On PostgreSQL it then measures the page's batched tRPC request over real HTTP
 * against the real server in its own process, next to a bare Fastify route
 * (`--http false` skips it). `--json <file>` also writes the results in the bench output contract (service-level
 * timings: `bare` is null). Its parts (fill, cases, report) are in scripts/bench/dashboard/.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "../server/db/database.ts";
import { dashboardCases, measure } from "./bench/dashboard/cases.ts";
import { fill } from "./bench/dashboard/fill.ts";
import { benchDashboardHttp } from "./bench/dashboard/http.ts";
import { args, DBS, OTHER_ROWS, ROWS, RUNS } from "./bench/dashboard/options.ts";
import { contractRows, reportHttp, reportService } from "./bench/dashboard/report.ts";
import { freshPostgresDatabase } from "./lib/fresh-postgres.ts";
import { runMain } from "./lib/run-main.ts";

async function bench(kind: string, db: Database) {
  console.error(
    `\n${kind}: inserting ${ROWS.toLocaleString()} + ${OTHER_ROWS.toLocaleString()} rows`,
  );
  const started = performance.now();
  await fill(db, "bench-main", ROWS, "main");
  await fill(db, "bench-other", OTHER_ROWS, "other");
  await db.prisma.$executeRawUnsafe(`ANALYZE "Transaction"`);
  const fillSeconds = (performance.now() - started) / 1000;
  console.error(`  filled in ${fillSeconds.toFixed(1)} s`);
  const results = await measure(await dashboardCases(kind, db));
  reportService(kind, results, fillSeconds);
}

/** The page's batched request over real HTTP, from this process to a server process of its own. */
async function benchHttp(databaseUrl: string) {
  console.error("\nPostgreSQL over HTTP: starting the server and a bare route");
  const figures = await benchDashboardHttp({
    databaseUrl,
    accountId: "bench-main",
    runs: Math.max(RUNS, 100),
    seconds: 10,
    connections: 10,
  });
  reportHttp(figures);
}

async function main() {
  try {
    if (DBS.includes("embedded")) await benchEmbedded();
    if (DBS.includes("postgres")) await benchPostgres();
  } finally {
    if (args.json) {
      await writeFile(
        args.json,
        `${JSON.stringify({ bench: "dashboard", results: contractRows }, null, 2)}\n`,
      );
      console.error(`Wrote ${args.json}`);
    }
  }
}

async function benchEmbedded() {
  const dataDir = await mkdtemp(join(tmpdir(), "warden-bench-"));
  const embedded = await openDatabase({ kind: "embedded", dataDir });
  try {
    await bench("embedded (PGlite)", embedded);
  } finally {
    await embedded.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function benchPostgres() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!adminUrl) {
    console.error("\nSet BENCH_DATABASE_URL (or DATABASE_URL) to benchmark PostgreSQL too.");
    return;
  }
  const { url, drop } = await freshPostgresDatabase(adminUrl, "bench");
  try {
    const postgres = await openDatabase({ kind: "postgres", url });
    try {
      await bench("PostgreSQL", postgres);
      if (args.http !== "false") await benchHttp(url);
    } finally {
      await postgres.close();
    }
  } finally {
    await drop();
  }
}

runMain(main, {
  show: (error) => `Benchmark failed: ${(error as Error)?.stack ?? error}`,
  // The migration engine leaves a timer behind; do not wait for it.
  after: () => process.stdout.write("", () => process.exit()),
});
