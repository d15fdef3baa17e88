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
 * timings: `bare` is null).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type Database, openDatabase } from "../server/db/database.ts";
import { encodeCursor } from "../server/modules/transactions/transaction-cursor.ts";
import { createTransactionsRepository } from "../server/modules/transactions/transactions.repository.ts";
import {
  createTransactionsService,
  type ListOptions,
} from "../server/modules/transactions/transactions.service.ts";
import { benchDashboardHttp } from "./bench/dashboard-http.ts";
import { flags } from "./lib/progress.ts";

const args = flags();
const DBS = args.db ? [args.db] : ["embedded", "postgres"];

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const OTHER_ROWS = Math.max(1, Math.round(ROWS / 20));
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const CHUNK = 100_000;
const NOW = Math.floor(Date.now() / 1000);
/** The rows span a year, so the 30-day summary covers about a twelfth of them. */
const SPAN_SECONDS = 365 * 86_400;

async function fill(db: Database, accountId: string, rows: number, label: string) {
  await db.prisma.account.create({ data: { id: accountId } });
  const started = performance.now();
  for (let start = 1; start <= rows; start += CHUNK) {
    const end = Math.min(rows, start + CHUNK - 1);
    // One statement per chunk; g drives every column so the data is varied but repeatable.
    // Every 100 charges: 2 blocked by Radar, 2 by a custom rule (refunded), 3 failed,
    // 1 refunded, 1 pending, the rest succeeded; 2% highest risk, 8% elevated.
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "Transaction" ("accountId", "chargeId", "hasCharge", "amount", "amountRefunded",
         "currency", "email", "created", "status", "captured", "refunded", "outcome", "outcomeType",
         "outcomeReason", "riskLevel", "riskScore", "blockedBy", "ruleReason", "actionKind",
         "actionStatus", "livemode", "updatedAt")
       SELECT $1, 'ch_' || $2 || lpad(g::text, 10, '0'), true, 500 + (g::bigint * 7919) % 100000,
         CASE WHEN g % 100 IN (2, 3, 7) THEN 500 + (g::bigint * 7919) % 100000 ELSE 0 END,
         CASE WHEN g % 20 = 0 THEN 'eur' ELSE 'usd' END,
         'user' || (g % 200000) || '@mail' || (g % 7) || '.example',
         $3 - ((g::bigint * $4) / $5)::int,
         CASE WHEN g % 100 IN (0, 1, 4, 5, 6) THEN 'failed' WHEN g % 100 = 8 THEN 'pending' ELSE 'succeeded' END,
         g % 100 NOT IN (0, 1, 4, 5, 6, 8), g % 100 IN (2, 3, 7),
         CASE WHEN g % 100 IN (0, 1, 2, 3) THEN 'blocked' WHEN g % 100 IN (4, 5, 6) THEN 'failed'
              WHEN g % 100 = 7 THEN 'refunded' WHEN g % 100 = 8 THEN 'pending' ELSE 'succeeded' END,
         CASE WHEN g % 100 IN (0, 1) THEN 'blocked' ELSE 'authorized' END,
         CASE WHEN g % 100 IN (0, 1) THEN 'highest_risk_level' WHEN g % 100 IN (4, 5, 6) THEN 'generic_decline' END,
         CASE WHEN g % 50 = 0 THEN 'highest' WHEN g % 50 < 5 THEN 'elevated' ELSE 'normal' END,
         (g * 37) % 100,
         (CASE WHEN g % 100 IN (0, 1) THEN 'stripe' WHEN g % 100 IN (2, 3) THEN 'custom_rule' END)::"BlockedBy",
         CASE WHEN g % 100 IN (2, 3) THEN 'risk score 82 above threshold 70' END,
         CASE WHEN g % 100 IN (2, 3) THEN 'refund' END,
         CASE WHEN g % 100 IN (2, 3) THEN 'done' END,
         false, now()
       FROM generate_series($6::int, $7::int) AS g`,
      accountId,
      label,
      NOW,
      SPAN_SECONDS,
      rows,
      start,
      end,
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    process.stderr.write(
      `\r  ${label}: ${end.toLocaleString()} / ${rows.toLocaleString()} rows (${seconds} s)`,
    );
  }
  process.stderr.write("\n");
}

type Case = { name: string; run: () => Promise<unknown>; target?: string };
type Measured = { name: string; median: number; p95: number; target?: string };
/** The contract's rows, gathered over every database benched. */
const contractRows: unknown[] = [];

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: at(0.5) ?? 0, p95: at(0.95) ?? 0 };
}

async function measure(cases: Case[]): Promise<Measured[]> {
  const results: Measured[] = [];
  for (const c of cases) {
    for (let i = 0; i < 2; i++) await c.run(); // warm caches and the query plan
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await c.run();
      samples.push(performance.now() - started);
    }
    const { median, p95 } = stats(samples);
    results.push({ name: c.name, median, p95, target: c.target });
  }
  return results;
}

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

  const service = createTransactionsService(
    createTransactionsRepository(db.prisma),
    () => new Date(),
  );
  const [middle] = await db.prisma.transaction.findMany({
    where: { accountId: "bench-main" },
    orderBy: [{ created: "desc" }, { chargeId: "desc" }],
    skip: Math.floor(ROWS / 2),
    take: 1,
    select: { created: true, chargeId: true },
  });
  const list = (options: ListOptions) => () => service.list("bench-main", options);
  const firstPage = list({ limit: 50 });
  const summary = () => service.summary("bench-main");
  const cases: Case[] = [
    {
      name: "whole dashboard load (first page ‖ summary)",
      run: () => Promise.all([firstPage(), summary()]),
      target: targetFor(kind, ROWS),
    },
    { name: "summary (30 days: totals and chart)", run: summary },
    { name: "first page (50, no filter)", run: firstPage },
    { name: "first page, outcome=blocked", run: list({ outcome: "blocked" }) },
    { name: "first page, blockedBy=custom_rule", run: list({ blockedBy: "custom_rule" }) },
    { name: "first page, riskLevel=highest", run: list({ riskLevel: "highest" }) },
    { name: "search charge id (exact)", run: list({ search: "ch_main0000500000" }) },
    { name: "search email prefix (user12345@)", run: list({ search: "user12345@" }) },
    {
      name: `page at row ${Math.floor(ROWS / 2).toLocaleString()} (cursor)`,
      run: list({ cursor: middle && encodeCursor(middle) }),
    },
    { name: "first page, limit 1000", run: list({ limit: 1000 }) },
  ];
  const results = await measure(cases);
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

/** The page's batched request over real HTTP, from this process to a server process of its own. */
async function benchHttp(databaseUrl: string) {
  console.error("\nPostgreSQL over HTTP: starting the server and a bare route");
  const { sequential: one, throughput: load } = await benchDashboardHttp({
    databaseUrl,
    accountId: "bench-main",
    runs: Math.max(RUNS, 100),
    seconds: 10,
    connections: 10,
  });
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

/** Issue 9's targets for the whole dashboard load. */
function targetFor(kind: string, rows: number): string | undefined {
  if (kind.startsWith("embedded")) return rows <= 1_000_000 ? "<= 20" : undefined;
  return rows <= 1_000_000 ? "<= 10" : rows <= 10_000_000 ? "<= 20" : undefined;
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
  const name = `warden_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    const postgres = await openDatabase({ kind: "postgres", url: url.toString() });
    try {
      await bench("PostgreSQL", postgres);
      if (args.http !== "false") await benchHttp(url.toString());
    } finally {
      await postgres.close();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

main()
  .catch((error: unknown) => {
    console.error(`Benchmark failed: ${(error as Error)?.stack ?? error}`);
    process.exitCode = 1;
  })
  // The migration engine leaves a timer behind; do not wait for it.
  .finally(() => process.stdout.write("", () => process.exit()));
