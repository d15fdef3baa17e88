/**
 * `npm run bench:backtest`: "Test on history" over a million stored events. Fills a fresh
 * database with BENCH_EVENTS (default 1,000,000) screenings and charges (80 / 20) spread over
 * the last 30 days, plus counting rows from the 30 days before (seeds), for one account;
 * then starts Warden as its own process (compiled, as `npm start` runs it: bench-process.ts)
 * and, over real HTTP, starts a 30-day backtest with every rule on and polls it until done.
 * The time is from the start request to the poll that sees it done. A bare Fastify route
 * (scripts/bench/bare-server.ts) is loaded with autocannon in the same run, as the floor; the
 * harness (the bare route, the machine line) is in scripts/bench/.
 *
 * PostgreSQL: BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres) is
 * the admin URL; the script creates and drops its own database. Embedded: BENCH_EMBEDDED_EVENTS
 * (default 200,000; PGlite is single-threaded in-process). `--db postgres|embedded` runs one;
 * `--json <file>` writes the results per the bench output contract.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type Database, openDatabase } from "../server/db/database.ts";
import { randomToken, sha256Bytes } from "../server/lib/tokens.ts";
import type { BacktestJob } from "../shared/schemas/backtest.ts";
import { DEFAULT_RULES, RULE_KEYS } from "../shared/schemas/rules.ts";
import { DEFAULT_TEMPLATES } from "../shared/schemas/templates.ts";
import { bareRequestsPerSecond } from "./bench/bare.ts";
import { childrenOf, cpuSeconds, machine, machineLine, memoryMb } from "./bench/machine.ts";
import { runBench } from "./bench/main.ts";
import { freePort, HOST, sleep, start, stop, waitUntil } from "./lib/bench-process.ts";
import { flags } from "./lib/progress.ts";

const args = flags();
const DBS = (args.db ?? "postgres,embedded").split(",");
const PG_EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const EMBEDDED_EVENTS = Number(process.env.BENCH_EMBEDDED_EVENTS ?? 200_000);
const SEED_EVENTS = 50_000;
const PG_ADMIN_URL =
  process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DAY_MS = 86_400_000;
const CHUNK = 100_000;
const ACCOUNT = "bench-backtest";

// Every rule on, with the default settings; a block list as a merchant might have.
const SETTINGS = {
  rules: { ...DEFAULT_RULES, ...Object.fromEntries(RULE_KEYS.map((key) => [key, true])) },
  templates: DEFAULT_TEMPLATES,
  rule_settings: {},
  blocklist: { countries: ["NG"], email_providers: ["mailinator.com"] },
  days: 30,
};

/** Peak and current resident memory of a process, in whole MB. */
function memoryOf(pid: number | undefined) {
  const memory = memoryMb(pid);
  return memory && { peakMb: Math.round(memory.peakMb), rssMb: Math.round(memory.rssMb) };
}

/** Screenings, charges and seed rows for one account, by INSERT … SELECT over generate_series. */
async function fill(db: Database, events: number): Promise<{ token: string; counts: object }> {
  const screenings = Math.round(events * 0.8);
  const charges = events - screenings;
  const now = Date.now();
  const span = 30 * DAY_MS - 60_000;
  await db.prisma.account.create({ data: { id: ACCOUNT } });
  const user = await db.prisma.user.create({
    data: {
      accountId: ACCOUNT,
      email: "bench@example.com",
      passwordHash: "not-a-login",
      emailConfirmedAt: new Date(),
    },
  });
  const id = randomToken();
  const secret = randomToken();
  await db.prisma.session.create({
    data: {
      id,
      secretHash: Buffer.from(sha256Bytes(secret)),
      userId: user.id,
      expiresAt: new Date(now + DAY_MS),
    },
  });
  const at = (msExpr: string) => `(timestamp 'epoch' + (${msExpr}) * interval '1 millisecond')`;
  for (let first = 1; first <= screenings; first += CHUNK) {
    const last = Math.min(screenings, first + CHUNK - 1);
    // Every 20 events: 3 signups, 4 logins, 2 trials, 2 promo redemptions, 1 referral,
    // 3 checkouts, 5 requests; people, devices, cards and addresses repeat so rules fire.
    await db.prisma.$executeRawUnsafe(
      `WITH e AS (
         SELECT g,
           CASE WHEN g % 20 < 3 THEN 'signup' WHEN g % 20 < 7 THEN 'login'
                WHEN g % 20 < 9 THEN 'trial_start' WHEN g % 20 < 11 THEN 'promo_redemption'
                WHEN g % 20 = 11 THEN 'referral' WHEN g % 20 < 15 THEN 'checkout'
                ELSE 'request' END AS type,
           'u' || (g % 300000) AS user_id,
           'user' || (g % 250000) || CASE WHEN g % 97 = 0 THEN '@mailinator.com' ELSE '@example.com' END AS email,
           ((g * 7919) % 200 + 20) || '.' || ((g * 31) % 256) || '.' || ((g * 17) % 256) || '.' || (g % 250 + 1) AS ip,
           'd' || (g % 200000) AS device
         FROM generate_series($2::bigint, $3::bigint) AS g)
       INSERT INTO "Screening" ("id", "accountId", "createdAt", "type", "userId", "email", "ip",
         "decision", "score", "rules", "reasons", "monitored", "input")
       SELECT 'scr-' || g, $1, ${at(`$4::bigint - (g::bigint * $5::bigint / $6::bigint)`)}, type,
         user_id, email, ip, 'allow', 0, '{}', '[]', '[]',
         jsonb_strip_nulls(jsonb_build_object(
           'type', type, 'user_id', user_id, 'email', email, 'ip', ip, 'device_id', device,
           'user_agent', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
           'timezone', 'America/New_York',
           'card_fingerprint', CASE WHEN type = 'checkout' THEN 'fp' || (g % 150000) END,
           'promo_code', CASE WHEN type = 'promo_redemption' THEN 'PROMO' || (g % 50) END,
           'referrer_user_id', CASE WHEN type = 'referral' THEN 'u' || ((g * 13) % 300000) END))
       FROM e`,
      ACCOUNT,
      first,
      last,
      now,
      span,
      screenings,
    );
    process.stderr.write(
      `\r  screenings ${last.toLocaleString()} / ${screenings.toLocaleString()}`,
    );
  }
  process.stderr.write("\n");
  // The 30 days before the window: device, email and IP rows (hashed as Warden hashes them).
  const digest = (kind: string, value: string) =>
    `substr(encode(sha256(convert_to('${kind}', 'UTF8') || '\\x00'::bytea || convert_to(${value}, 'UTF8')), 'hex'), 1, 32)`;
  for (const [kind, value] of [
    ["device", `'d' || (g % 200000)`],
    ["email", `'user' || (g % 250000) || '@example.com'`],
    [
      "ip",
      `((g * 7919) % 200 + 20) || '.' || ((g * 31) % 256) || '.' || ((g * 17) % 256) || '.' || (g % 250 + 1)`,
    ],
  ] as const) {
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "ScreeningIdentity" ("accountId", "screeningId", "kind", "value", "type", "at",
         "subject", "userId", "blocked")
       SELECT $1, 'seed-' || g, '${kind}', ${digest(kind, value)}, 'signup',
         ${at(`$2::bigint - 30 * 86400000::bigint - (g::bigint * $3::bigint / $4::bigint)`)},
         ${digest("user", `'u' || (g % 300000)`)}, ${digest("user", `'u' || (g % 300000)`)}, false
       FROM generate_series(1, $4::bigint) AS g`,
      ACCOUNT,
      now,
      span,
      SEED_EVENTS,
    );
  }
  for (let first = 1; first <= charges; first += CHUNK) {
    const last = Math.min(charges, first + CHUNK - 1);
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "Transaction" ("accountId", "chargeId", "hasCharge", "amount", "amountRefunded",
         "currency", "email", "created", "status", "captured", "refunded", "disputed", "outcome",
         "outcomeType", "riskLevel", "riskScore", "cardCountry", "billingCountry",
         "cardFingerprint", "livemode", "updatedAt")
       SELECT $1, 'ch_bench' || lpad(g::text, 10, '0'), true, 500 + (g * 7919) % 100000,
         CASE WHEN g % 100 = 7 THEN 500 + (g * 7919) % 100000 ELSE 0 END, 'usd',
         'user' || (g % 250000) || '@example.com',
         (($2::bigint - (g::bigint * $3::bigint / $4::bigint)) / 1000)::int,
         'succeeded', true, g % 100 = 7, g % 200 = 0,
         CASE WHEN g % 200 = 0 THEN 'disputed' WHEN g % 100 = 7 THEN 'refunded' ELSE 'succeeded' END,
         'authorized', CASE WHEN (g * 37) % 100 > 75 THEN 'elevated' ELSE 'normal' END,
         (g * 37) % 100, CASE WHEN g % 50 = 0 THEN 'NG' ELSE 'US' END, 'US',
         'fp' || (g % 150000), false, now()
       FROM generate_series($5::bigint, $6::bigint) AS g`,
      ACCOUNT,
      now,
      span,
      charges,
      first,
      last,
    );
    process.stderr.write(`\r  charges ${last.toLocaleString()} / ${charges.toLocaleString()}`);
  }
  process.stderr.write("\n");
  // VACUUM as autovacuum would have by then on a database in use: without it the first read
  // of a million freshly inserted rows also sets their hint bits, writing every page again.
  for (const table of ["Screening", "ScreeningIdentity", "Transaction"]) {
    await db.prisma.$executeRawUnsafe(`VACUUM (ANALYZE) "${table}"`);
  }
  return {
    token: `${id}.${secret}`,
    counts: { screenings, charges, seedRows: SEED_EVENTS * 3 },
  };
}

async function runBacktest(base: string, token: string, pid: number | undefined) {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const before = memoryOf(pid);
  const cpuBefore = cpuSeconds(pid, true) ?? 0;
  const loadBefore = loadavg()[0];
  const started = performance.now();
  const res = await fetch(`${base}/trpc/backtest.start`, {
    method: "POST",
    headers,
    body: JSON.stringify(SETTINGS),
  });
  if (!res.ok) throw new Error(`backtest.start: ${res.status} ${await res.text()}`);
  // The job's own process (PostgreSQL): its peak resident memory, read while it runs.
  let jobPeakMb = 0;
  // How long the server takes to answer a status poll while the job runs: what a live
  // screening or webhook would wait on top of its own work.
  const pollMs: number[] = [];
  for (;;) {
    await sleep(200);
    for (const child of childrenOf(pid)) {
      try {
        jobPeakMb = Math.max(jobPeakMb, memoryOf(child)?.peakMb ?? 0);
      } catch {
        // It ended between the listing and the read.
      }
    }
    const asked = performance.now();
    const polled = await fetch(`${base}/trpc/backtest.status`, { headers });
    const answered = performance.now() - asked;
    const job = ((await polled.json()) as { result?: { data: BacktestJob } }).result?.data;
    if (!job) throw new Error("no backtest job");
    if (job.status === "running") {
      pollMs.push(answered);
      const pct = job.total ? Math.round((job.processed / job.total) * 100) : 0;
      process.stderr.write(`\r  backtest ${pct}% (${job.processed.toLocaleString()} events)`);
      continue;
    }
    process.stderr.write("\n");
    if (job.status !== "done" || !job.result) throw new Error(`backtest ${job.status}`);
    const seconds = (performance.now() - started) / 1000;
    const cpuUsed = (cpuSeconds(pid, true) ?? 0) - cpuBefore;
    const load = [loadBefore, loadavg()[0]].map((n) => Number(n?.toFixed(1)));
    pollMs.sort((a, b) => a - b);
    const poll = {
      p99: Number((pollMs[Math.floor(pollMs.length * 0.99)] ?? 0).toFixed(1)),
      max: Number((pollMs.at(-1) ?? 0).toFixed(1)),
    };
    return {
      seconds,
      job,
      before,
      after: memoryOf(pid),
      jobPeakMb,
      poll,
      cpuSeconds: cpuUsed,
      load,
    };
  }
}

async function bench(kind: "postgres" | "embedded", workDir: string, bareReqPerSec: number) {
  const events = kind === "postgres" ? PG_EVENTS : EMBEDDED_EVENTS;
  const label = kind === "postgres" ? "PostgreSQL" : "embedded (PGlite)";
  const env: Record<string, string> = { LOG_LEVEL: "warn", HOST };
  let cleanup = async () => {};
  let db: Database;
  if (kind === "postgres") {
    const name = `warden_bench_backtest_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    cleanup = async () => {
      // BENCH_KEEP_DB=1 leaves the filled database for EXPLAIN or a profile of its own.
      if (process.env.BENCH_KEEP_DB) return console.error(`  kept database ${name}`);
      const again = new pg.Client({ connectionString: PG_ADMIN_URL });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await again.end();
    };
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    env.ENCRYPTION_KEY = randomBytes(32).toString("base64");
    db = await openDatabase({ kind: "postgres", url: env.DATABASE_URL });
  } else {
    const dataDir = await mkdtemp(join(tmpdir(), "warden-bench-backtest-"));
    env.DATA_DIR = dataDir;
    cleanup = () => rm(dataDir, { recursive: true, force: true });
    db = await openDatabase({ kind: "embedded", dataDir });
  }
  try {
    console.error(`\n${label}: filling ${events.toLocaleString()} events`);
    const filling = performance.now();
    const { token, counts } = await fill(db, events);
    await db.close();
    console.error(`  filled in ${((performance.now() - filling) / 1000).toFixed(1)} s`);
    const port = await freePort();
    const base = `http://${HOST}:${port}`;
    const logFile = join(workDir, `${kind}-server.log`);
    const child = start(
      `Warden (${kind})`,
      "server/main.ts",
      { ...env, PORT: String(port) },
      logFile,
    );
    try {
      await waitUntil(
        `Warden (${kind})`,
        child,
        logFile,
        async () => (await fetch(`${base}/healthz`)).status < 500,
        180_000,
      );
      const run = await runBacktest(base, token, child.pid);
      const result = run.job?.result;
      console.log(
        `\n${label}: ${events.toLocaleString()} stored events tried in ${run.seconds.toFixed(1)} s ` +
          `(server: ${((result?.tookMs ?? 0) / 1000).toFixed(1)} s; ` +
          `${Math.round(events / run.seconds).toLocaleString()} events/s)`,
      );
      console.table({
        events,
        "wall s (HTTP start → done)": run.seconds.toFixed(1),
        "server s": ((result?.tookMs ?? 0) / 1000).toFixed(1),
        "server CPU s (user+sys, job process included)": run.cpuSeconds.toFixed(1),
        "load average (1 min) before / after": run.load.join(" / "),
        "server RSS before MB": run.before?.rssMb,
        "server peak RSS MB": run.after?.peakMb,
        "job process peak RSS MB": run.jobPeakMb || "none (in the server)",
        "status poll while running p99 / max ms": `${run.poll.p99} / ${run.poll.max}`,
        "changed decisions": result?.changed,
        "bare route req/s": Math.round(bareReqPerSec),
      });
      return {
        name: `backtest, ${events.toLocaleString()} events, 30 days, every rule (${label})`,
        value: Number(run.seconds.toFixed(2)),
        unit: "s",
        target: kind === "postgres" && events >= 1_000_000 ? "<= 30" : "none (smaller N)",
        bare: { value: Math.round(bareReqPerSec), unit: "req/s" },
        detail: {
          database: kind,
          ...counts,
          serverSeconds: (result?.tookMs ?? 0) / 1000,
          serverCpuSeconds: Number(run.cpuSeconds.toFixed(1)),
          loadAverage1m: run.load,
          machine: machine(),
          eventsPerSecond: Math.round(events / run.seconds),
          serverRssBeforeMb: run.before?.rssMb,
          serverPeakRssMb: run.after?.peakMb,
          jobProcessPeakRssMb: run.jobPeakMb || null,
          statusPollWhileRunningMs: run.poll,
          changed: result?.changed,
          screeningChanges: result?.screenings.changes,
          chargeChanges: result?.charges.changes,
        },
      };
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
  for (const kind of DBS) {
    if (kind !== "postgres" && kind !== "embedded") throw new Error(`unknown --db ${kind}`);
    results.push(await bench(kind, workDir, bare));
  }
  if (args.json) {
    await writeFile(args.json, `${JSON.stringify({ bench: "backtest", results }, null, 2)}\n`);
    console.error(`wrote ${args.json}`);
  }
}

runBench("bench:backtest", main);
