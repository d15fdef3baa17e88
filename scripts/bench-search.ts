/**
 * `npx tsx scripts/bench-search.ts [--db embedded|postgres|both] [--json <file>]`: the
 * Screenings page's search at 1,000,000 screenings (BENCH_SCREENINGS) of one account, on the
 * embedded database (a data dir under the system's temp folder) and on PostgreSQL
 * (BENCH_DATABASE_URL or DATABASE_URL, default local postgres; creates and drops its own
 * database). Fills the screenings in chunks with the migrations' indexes in place (so the fill
 * time includes keeping the trigram indexes), plus 10% as many of a second account, then times
 * the real history service's first page of 50 for each kind of search (median and p95 of
 * BENCH_RUNS, default 20): a rare email domain (0.1% of rows), a common one (40%), an IP range
 * prefix (0.4%), a user id prefix (11 rows), a whole IP, and a text found nowhere.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "../server/db/database.ts";
import { createScreeningRepository } from "../server/modules/screening/screening.repository.ts";
import { createScreeningHistoryService } from "../server/modules/screening/screening-history.service.ts";
import type { BenchResult } from "./bench/report.ts";
import { BENCH_ADMIN_URL, benchDatabase, cleanup } from "./lib/bench-process.ts";
import { flags } from "./lib/progress.ts";
import { runMain } from "./lib/run-main.ts";
import { timedRuns } from "./lib/timed-runs.ts";

const args = flags();
const ROWS = Number(process.env.BENCH_SCREENINGS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const CHUNK = 50_000;

/** The searches timed, each with what it finds in the filled rows. */
const SEARCHES: [label: string, text: string][] = [
  ["email domain, rare (mailinator, 0.1%)", "mailinator"],
  ["email domain, common (gmail, 40%)", "gmail"],
  ["IP range prefix (203.0.113., 0.4%)", "203.0.113."],
  ["user id prefix (u12345, 11 rows)", "u12345"],
  ["whole IP (198.51.100.8, 0.04%)", "198.51.100.8"],
  ["found nowhere (zzqq-nobody)", "zzqq-nobody"],
];

/**
 * Screenings g in [from, to] of `accountId`: user u<g>; email user<g>@ gmail.com (40%),
 * outlook.com, example.com, …, mailinator.com (1 in 1,000); IP 203.0.<g % 250>.<g % 200>, or
 * 198.51.100.<g % 256> for 1 in 10.
 */
async function fill(db: Database, accountId: string, from: number, to: number) {
  for (let start = from; start <= to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK - 1);
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "Screening" ("id", "accountId", "createdAt", "type", "userId", "email", "ip",
         "decision", "score", "rules", "reasons", "monitored", "input")
       SELECT md5($1 || g)::uuid::text, $1, now() - make_interval(secs => g * 3), 'signup',
         'u' || g,
         'user' || g || '@' || CASE WHEN g % 1000 = 0 THEN 'mailinator.com'
           WHEN g % 5 < 2 THEN 'gmail.com' WHEN g % 5 = 2 THEN 'outlook.com'
           ELSE 'example' || (g % 97) || '.com' END,
         CASE WHEN g % 10 = 0 THEN '198.51.100.' || (g % 256)
           ELSE '203.0.' || (g % 250) || '.' || (g % 200) END,
         CASE WHEN g % 20 = 0 THEN 'block' ELSE 'allow' END, 10, ARRAY[]::text[],
         '[]'::jsonb, '[]'::jsonb, jsonb_build_object('type', 'signup', 'user_id', 'u' || g)
       FROM generate_series($2::int, $3::int) AS g`,
      accountId,
      start,
      end,
    );
    if ((end - from + 1) % 200_000 === 0) console.log(`  ${end - from + 1} rows`);
  }
}

async function time(label: string, run: () => Promise<{ items: unknown[] }>) {
  const found = (await run()).items.length;
  const { median, p95 } = await timedRuns(RUNS, run);
  console.log(
    `${label.padEnd(40)} ${String(found).padStart(3)} on the page   median ${median.toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms`,
  );
  return { median, p95, found };
}

async function benchOn(db: Database) {
  const [a, b] = [`bench-search-a-${db.kind}`, `bench-search-b-${db.kind}`];
  await db.prisma.account.createMany({ data: [{ id: a }, { id: b }] });
  const started = performance.now();
  await fill(db, a, 1, ROWS);
  await fill(db, b, ROWS + 1, ROWS + Math.round(ROWS / 10));
  const fillSeconds = (performance.now() - started) / 1000;
  await db.prisma.$executeRawUnsafe("ANALYZE");
  console.log(
    `${db.kind}: filled ${ROWS} screenings (+${Math.round(ROWS / 10)} of another account) in ${fillSeconds.toFixed(1)} s`,
  );
  const history = createScreeningHistoryService({
    repo: createScreeningRepository(db.prisma, db.sql),
    now: () => new Date(),
  });
  const results: Record<string, { median: number; p95: number; found: number }> = {};
  results["no search (first page)"] = await time("no search (first page)", () =>
    history.list(a, { limit: 50 }),
  );
  for (const [label, text] of SEARCHES) {
    results[label] = await time(label, () => history.list(a, { limit: 50, search: text }));
  }
  // The plans of two searches as the page runs them (the same WHERE as Prisma's).
  for (const text of ["mailinator", "203.0.113."]) {
    const plan = await db.prisma.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
      `EXPLAIN SELECT "id" FROM "Screening" WHERE "accountId" = $1 AND ("email" ILIKE $2
         OR "userId" LIKE $3 OR "ip" LIKE $4) ORDER BY "createdAt" DESC, "id" DESC LIMIT 51`,
      a,
      `%${text}%`,
      `${text}%`,
      `${text.toLowerCase()}%`,
    );
    console.log(`plan for "${text}":\n${plan.map((row) => row["QUERY PLAN"]).join("\n")}`);
  }
  return { fillSeconds, results };
}

async function onPostgres() {
  const database = await benchDatabase(BENCH_ADMIN_URL, "warden_bench_search");
  const db = await openDatabase({ kind: "postgres", url: database.url });
  try {
    return await benchOn(db);
  } finally {
    await db.close();
    await database.drop();
  }
}

async function onEmbedded() {
  const dir = await mkdtemp(join(tmpdir(), "warden-bench-search-"));
  const db = await openDatabase({ kind: "embedded", dataDir: dir });
  try {
    return await benchOn(db);
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const which = args.db ?? "both";
  const runs: [string, Awaited<ReturnType<typeof benchOn>>][] = [];
  if (which === "both" || which === "embedded") runs.push(["embedded", await onEmbedded()]);
  if (which === "both" || which === "postgres") runs.push(["PostgreSQL", await onPostgres()]);
  if (args.json) {
    const out: BenchResult[] = runs.flatMap(([name, run]) => [
      {
        name: `Screenings search, rare email domain at ${ROWS.toLocaleString("en-US")} (${name}, median)`,
        value: run.results[SEARCHES[0]?.[0] ?? ""]?.median ?? 0,
        unit: "ms",
        target: "< 100 ms",
        detail: run,
      },
    ]);
    await writeFile(args.json, JSON.stringify({ results: out }, null, 2));
  }
}

runMain(main, { show: (error) => error, after: cleanup });
