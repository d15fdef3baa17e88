/**
 * `npm run bench:dashboard`: the dashboard's first-page time with a million stored
 * transactions. Fills a fresh database with BENCH_ROWS (default 1,000,000) charges for one
 * account, plus some for a second account, then times the real transactions service: the
 * first page, filtered pages, search, a deep page and the 30-day summary (median and p95).
 *
 * Always runs on the embedded database (in a temporary data dir); also on PostgreSQL when
 * BENCH_DATABASE_URL or DATABASE_URL is set, in a database it creates and drops itself.
 * BENCH_RUNS (default 20) sets the timed runs per case.
 */
import { mkdtemp, rm } from "node:fs/promises";
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

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const OTHER_ROWS = Math.max(1, Math.round(ROWS / 20));
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const CHUNK = 100_000;
const NOW = Math.floor(Date.now() / 1000);
/** The rows span a year, so the 30-day summary covers about a twelfth of them. */
const SPAN_SECONDS = 365 * 86_400;

async function fill(db: Database, accountId: string, rows: number, label: string) {
  await db.prisma.account.create({ data: { id: accountId } });
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
    process.stderr.write(`\r  ${label}: ${end.toLocaleString()} / ${rows.toLocaleString()} rows`);
  }
  process.stderr.write("\n");
}

type Case = { name: string; run: () => Promise<unknown> };

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: at(0.5) ?? 0, p95: at(0.95) ?? 0 };
}

async function measure(cases: Case[]) {
  const results: { case: string; "median ms": string; "p95 ms": string }[] = [];
  for (const c of cases) {
    for (let i = 0; i < 2; i++) await c.run(); // warm caches and the query plan
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await c.run();
      samples.push(performance.now() - started);
    }
    const { median, p95 } = stats(samples);
    results.push({ case: c.name, "median ms": median.toFixed(1), "p95 ms": p95.toFixed(1) });
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
  console.error(`  filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);

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
  const cases: Case[] = [
    { name: "first page (50, no filter)", run: list({}) },
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
    { name: "summary (30 days)", run: () => service.summary("bench-main") },
  ];
  const results = await measure(cases);
  console.log(
    `\n${kind}, ${ROWS.toLocaleString()} transactions in one account, ${RUNS} runs each:`,
  );
  console.table(results);
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), "warden-bench-"));
  const embedded = await openDatabase({ kind: "embedded", dataDir });
  try {
    await bench("embedded (PGlite)", embedded);
  } finally {
    await embedded.close();
    await rm(dataDir, { recursive: true, force: true });
  }

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
