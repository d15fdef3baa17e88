/**
 * `npm run bench:webhooks`: signed Stripe events a second through the real webhook path
 * (HTTP, signature check, inbox, merge, rules, commit), with Warden as a separate process
 * (compiled, as `npm start` runs it: bench-process.ts) and the load sent from this one over
 * real HTTP (autocannon), next to a bare Fastify route (scripts/bench/bare-server.ts) given the
 * same load. The harness (loads, the bare route, the machine line) is in scripts/bench/.
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
 * enough for the rules to refund (scripts/lib/webhook-traffic.ts).
 *
 * The server's /metrics (METRICS_TOKEN set for the run) say how many events shared each ingest
 * statement during the measured part.
 *
 * Afterwards the server is stopped and the database read directly: every event sent must be
 * stored once, every charge must have a row whose newest event is the newest sent, and every
 * answer must have been 200 "applied". Anything else fails the run (exit code 1).
 *
 * Options: --db postgres|embedded (default both), --events 20000 (100000 for the issue's memory
 * figure), --warmup 1000, --connections 16, --bare-seconds 10, --json <file>.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { startBare } from "./bench/bare.ts";
import { percentile, runLoad } from "./bench/load.ts";
import { machineLine, memoryMb } from "./bench/machine.ts";
import { runBench } from "./bench/main.ts";
import {
  benchDatabase,
  call,
  cleanups,
  freePort,
  HOST,
  signUpMerchant,
  start,
  stop,
  tail,
  waitUntil,
} from "./lib/bench-process.ts";
import { flags } from "./lib/progress.ts";
import { startStripeStandIn } from "./lib/stripe-stand-in.ts";
import { webhookStream } from "./lib/webhook-traffic.ts";

const args = flags();
const DBS = (args.db ? [args.db] : ["postgres", "embedded"]) as ("postgres" | "embedded")[];
const EVENTS = Number(args.events ?? 20_000);
const WARMUP = Number(args.warmup ?? 1000);
const CONNECTIONS = Number(args.connections ?? 16);
const BARE_SECONDS = Number(args["bare-seconds"] ?? 10);
const JSON_FILE = args.json;
const PG_ADMIN_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.DATABASE_URL ??
  "postgresql://postgres@127.0.0.1:5432/postgres";
const PASSWORD = "bench webhooks password";
const SECRET_KEY = "sk_test_51WardenBenchKey000000000000000";
const SIGNING_SECRET = `whsec_${randomBytes(24).toString("base64url")}`;
const METRICS_TOKEN = randomBytes(24).toString("base64url");

for (const db of DBS) {
  if (db !== "postgres" && db !== "embedded") {
    console.error(`--db must be postgres or embedded (got "${db}")`);
    process.exit(2);
  }
}

type Load = {
  count: number;
  seconds: number;
  perSecond: number;
  statuses: Record<string, number>;
  answers: Record<string, number>;
  errors: number;
  p50: number;
  p99: number;
  samples: string[];
};

/**
 * Sends `count` requests (or for `seconds`) from `connections` keep-alive connections, each
 * sending its next request when its previous answer arrived (closed loop). The load comes
 * from autocannon: with Node's http.request the generator took 0.37 ms of the shared
 * machine's CPU per event, with autocannon 0.26–0.31 (CPU the server under test loses).
 * Each event is signed as it is sent.
 */
async function load(
  label: string,
  url: string,
  next: () => { payload: string; signature: string },
  limit: { count: number } | { seconds: number },
): Promise<Load> {
  const statuses: Record<string, number> = {};
  const answers: Record<string, number> = {};
  const samples: string[] = [];
  let sent = 0;
  const total = "count" in limit ? limit.count : null;
  const { result, latencies, seconds, done } = await runLoad(
    label,
    {
      url,
      connections: CONNECTIONS,
      pipelining: 1,
      timeout: 30,
      ...("count" in limit ? { amount: limit.count } : { duration: limit.seconds }),
      requests: [
        {
          method: "POST",
          setupRequest: (request) => {
            const body = next();
            sent++;
            return {
              ...request,
              method: "POST",
              body: body.payload,
              headers: { "content-type": "application/json", "stripe-signature": body.signature },
            };
          },
          onResponse: (status: number, text: string) => {
            statuses[status] = (statuses[status] ?? 0) + 1;
            if (status === 200) {
              const answer = (JSON.parse(text) as { status?: string }).status ?? "?";
              answers[answer] = (answers[answer] ?? 0) + 1;
            } else if (samples.length < 5) samples.push(`${status} ${text.slice(0, 300)}`);
          },
        },
      ],
    },
    ({ elapsed, answered }) => {
      const rate = `${(answered / elapsed).toFixed(0)}/s`;
      return total
        ? { percent: (answered / total) * 100, detail: `${answered}/${total} (${rate})` }
        : { percent: (elapsed / (limit as { seconds: number }).seconds) * 100, detail: rate };
    },
    (status) => status === 200,
  );
  const at = (q: number) => percentile(latencies, q);
  const errors = result.errors + result.timeouts;
  const summary = {
    count: total ?? sent,
    seconds,
    perSecond: latencies.length / seconds,
    statuses,
    answers,
    errors,
    p50: at(0.5),
    p99: at(0.99),
    samples,
  };
  done(
    `${summary.count} in ${seconds.toFixed(1)} s = ${summary.perSecond.toFixed(0)}/s answered 200; ` +
      `p50 ${summary.p50.toFixed(1)} ms, p99 ${summary.p99.toFixed(1)} ms; HTTP ${JSON.stringify(statuses)}` +
      (errors ? `; ${errors} socket errors or timeouts` : ""),
  );
  return summary;
}

/** The server process's resident memory in MB. */
const rssMb = (pid: number | undefined) => memoryMb(pid)?.rssMb ?? null;

async function benchBare(workDir: string) {
  const { url, child } = await startBare(workDir);
  // The same bodies as the webhooks (signed, though the bare route does not check).
  const stream = webhookStream(SIGNING_SECRET, "bare");
  // Built before the clock starts, as for Warden's run; sent round again if the route is fast.
  const next = stream.prebuilt(20_000);
  try {
    return await load("bare route", url, next, { seconds: BARE_SECONDS });
  } finally {
    await stop(child);
  }
}

type BatchTotals = Record<"read" | "write", { sum: number; count: number }>;

/** The ingest statements' batch-size histogram totals, from the server's /metrics. */
async function batchSizes(base: string): Promise<BatchTotals> {
  const text = await (
    await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const totals: BatchTotals = { read: { sum: 0, count: 0 }, write: { sum: 0, count: 0 } };
  for (const match of text.matchAll(
    /^warden_ingest_batch_size_(sum|count)\{statement="(read|write)"\} (\S+)$/gm,
  )) {
    const [, field, statement, value] = match as unknown as [
      string,
      "sum" | "count",
      "read" | "write",
      string,
    ];
    totals[statement][field] = Number(value);
  }
  return totals;
}

/** Events per statement between two readings of the totals. */
function perStatement(before: BatchTotals, after: BatchTotals) {
  const mean = (s: "read" | "write") =>
    (after[s].sum - before[s].sum) / Math.max(1, after[s].count - before[s].count);
  return { read: mean("read"), write: mean("write") };
}

type Stored = { events: number; rows: number; wrong: number; missing: number; sample: string[] };

/** Reads what the server stored, once it has stopped, against what the stream sent. */
async function verify(
  query: (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>,
  accountId: string,
  newest: Map<string, number>,
): Promise<Stored> {
  const [events] = await query(
    `SELECT count(*)::int AS n FROM "StripeEvent" WHERE "accountId" = $1`,
    [accountId],
  );
  const rows = await query(
    `SELECT "chargeId", "lastEventAt", "hasCharge" FROM "Transaction" WHERE "accountId" = $1`,
    [accountId],
  );
  const seen = new Map(rows.map((r) => [r.chargeId as string, r]));
  let wrong = 0;
  let missing = 0;
  const sample: string[] = [];
  for (const [chargeId, created] of newest) {
    const row = seen.get(chargeId);
    if (!row) {
      missing++;
      if (sample.length < 5) sample.push(`${chargeId}: no row`);
    } else if (row.lastEventAt !== created || row.hasCharge !== true) {
      wrong++;
      if (sample.length < 5)
        sample.push(
          `${chargeId}: lastEventAt ${row.lastEventAt}, expected ${created}; hasCharge ${row.hasCharge}`,
        );
    }
  }
  return { events: Number(events?.n ?? 0), rows: rows.length, wrong, missing, sample };
}

async function benchWarden(kind: "postgres" | "embedded", workDir: string, stripeUrl: string) {
  const dataDir = await mkdtemp(join(workDir, `${kind}-`));
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  const env: Record<string, string> = {
    PORT: String(port),
    HOST,
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    STRIPE_API_BASE: stripeUrl,
    METRICS_TOKEN,
  };
  let dropDatabase: (() => Promise<void>) | null = null;
  let databaseUrl: string | null = null;
  if (kind === "postgres") {
    const database = await benchDatabase(PG_ADMIN_URL, "warden_bench_webhooks");
    dropDatabase = database.drop;
    databaseUrl = database.url;
    env.DATABASE_URL = databaseUrl;
    env.ENCRYPTION_KEY = randomBytes(32).toString("base64");
  }
  const logFile = join(workDir, `${kind}-server.log`);
  const label = kind === "postgres" ? "PostgreSQL" : "embedded";
  console.error(`\n${label}: starting Warden on ${base}`);
  const child = start(`Warden (${kind})`, "server/main.ts", env, logFile);
  try {
    await waitUntil(
      `Warden (${kind})`,
      child,
      logFile,
      async () => (await fetch(`${base}/healthz`)).ok,
    );
    const token = await signUpMerchant(base, dataDir, PASSWORD);
    const saved = await call<{ stripe_webhook_url: string }>(base, "/api/settings", {
      method: "PUT",
      token,
      body: {
        app_name: "Bench shop",
        contact_email: "bench@example.com",
        stripe_secret: SECRET_KEY,
        stripe_publishable: "pk_test_51WardenBenchKey",
        stripe_webhook_secret: SIGNING_SECRET,
      },
    });
    const rules = await call<Record<string, unknown>>(base, "/api/rules", { token });
    const allOn = Object.fromEntries(
      Object.entries(rules).map(([key, value]) => [key, typeof value === "boolean" ? true : value]),
    );
    await call(base, "/api/rules", { method: "PUT", token, body: allOn });
    const path = new URL(saved.stripe_webhook_url).pathname;
    const url = `${base}${path}`;

    const stream = webhookStream(SIGNING_SECRET, kind.slice(0, 2));
    const warmup = await load(`${label}: warm-up`, url, stream.next, { count: WARMUP });
    console.error(`${label}: building ${EVENTS} events before the clock starts`);
    const prebuilt = stream.prebuilt(EVENTS);
    let measuredSent = 0;
    const next = () => {
      measuredSent++;
      return prebuilt();
    };
    const rssBefore = rssMb(child.pid);
    // Resident memory every 10 s during the load: growth shows before the run ends.
    const loadStarted = performance.now();
    const rssSamples: { seconds: number; events: number; mb: number | null }[] = [];
    const sampler = setInterval(() => {
      const mb = rssMb(child.pid);
      rssSamples.push({
        seconds: Math.round((performance.now() - loadStarted) / 1000),
        events: measuredSent,
        mb,
      });
      if (!process.stderr.isTTY)
        console.error(`${label}: RSS ${mb?.toFixed(0)} MB after ${measuredSent} events`);
    }, 10_000);
    const batchesBefore = await batchSizes(base);
    const measured = await load(`${label}: ${EVENTS} events`, url, next, { count: EVENTS });
    clearInterval(sampler);
    const rssAfter = rssMb(child.pid);
    console.error(
      `${label}: server RSS ${rssBefore?.toFixed(0)} MB before, ${rssAfter?.toFixed(0)} MB after ${EVENTS} events`,
    );
    const batches = perStatement(batchesBefore, await batchSizes(base));
    console.error(
      `${label}: events per statement during the run: read ${batches.read.toFixed(1)}, write ${batches.write.toFixed(1)}`,
    );
    await stop(child);

    // Read what was stored, straight from the database the server used.
    let stored: Stored;
    const accountOf = async (
      query: (t: string, p: unknown[]) => Promise<Record<string, unknown>[]>,
    ) =>
      (
        await query(`SELECT "id" FROM "Account" WHERE "webhookEndpointId" = $1`, [
          path.split("/").pop(),
        ])
      )[0]?.id as string;
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const query = async (t: string, p: unknown[]) => (await client.query(t, p)).rows;
      stored = await verify(query, await accountOf(query), stream.newest);
      await client.end();
    } else {
      const db = await PGlite.create(join(dataDir, "pgdata"));
      const query = async (t: string, p: unknown[]) =>
        (await db.query<Record<string, unknown>>(t, p)).rows;
      stored = await verify(query, await accountOf(query), stream.newest);
      await db.close();
    }
    const sent = warmup.count + measured.count;
    const applied = (warmup.answers.applied ?? 0) + (measured.answers.applied ?? 0);
    const problems: string[] = [];
    if (stored.events !== sent) problems.push(`${sent} events sent, ${stored.events} stored`);
    if (applied !== sent) problems.push(`${sent} events sent, ${applied} answered "applied"`);
    if (stored.missing || stored.wrong)
      problems.push(
        `${stored.missing} charges without a row, ${stored.wrong} not at their newest event: ${stored.sample.join("; ")}`,
      );
    if (stored.rows !== stream.newest.size)
      problems.push(`${stream.newest.size} charges sent, ${stored.rows} rows`);
    console.error(
      `${label}: stored ${stored.events} events and ${stored.rows} charges; ` +
        (problems.length ? `PROBLEMS: ${problems.join(" | ")}` : "all stored and applied"),
    );
    return {
      database: kind,
      warmup,
      measured,
      rss: { beforeMb: rssBefore, afterMb: rssAfter, events: EVENTS, samples: rssSamples },
      batches,
      types: stream.types,
      charges: stream.newest.size,
      stored,
      problems,
    };
  } catch (error) {
    (error as Error).message +=
      `\n--- the ${label} server's log, last lines:\n${tail(logFile, 25)}`;
    throw error;
  } finally {
    await stop(child);
    await dropDatabase?.();
  }
}

async function main() {
  const started = new Date();
  const workDir = await mkdtemp(join(tmpdir(), "warden-bench-webhooks-"));
  cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  const stripe = await startStripeStandIn();
  cleanups.push(() => stripe.close());
  console.error(
    `bench:webhooks: ${DBS.join(" and ")}; ${EVENTS} events after ${WARMUP} warm-up, ` +
      `${CONNECTIONS} connections; ${machineLine()}`,
  );
  console.error("\nbare Fastify route: starting");
  const bare = await benchBare(workDir);
  const runs = [];
  for (const kind of DBS) runs.push(await benchWarden(kind, workDir, stripe.url));

  const rows = [
    "| database | events/s | bare route req/s | p50 / p99 | events per read / write statement | server RSS before → after | events | stored and applied |",
    "|---|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const run of runs) {
    rows.push(
      `| ${run.database === "postgres" ? "PostgreSQL" : "embedded"} | ${run.measured.perSecond.toFixed(0)} | ` +
        `${bare.perSecond.toFixed(0)} | ${run.measured.p50.toFixed(1)} ms / ${run.measured.p99.toFixed(1)} ms | ` +
        `${run.batches.read.toFixed(1)} / ${run.batches.write.toFixed(1)} | ` +
        `${run.rss.beforeMb?.toFixed(0)} → ${run.rss.afterMb?.toFixed(0)} MB | ${run.measured.count} | ` +
        `${run.problems.length ? `NO: ${run.problems.join("; ")}` : "yes"} |`,
    );
  }
  console.log(
    `\n${rows.join("\n")}\n\n${CONNECTIONS} connections, each sending its next event when the previous was answered; ` +
      `the bare route got the same bodies for ${BARE_SECONDS} s. Event mix: ${JSON.stringify(runs[0]?.types ?? {})}\n${machineLine()}`,
  );
  if (JSON_FILE) {
    const targets = { postgres: ">= 1000", embedded: ">= 400" };
    const results = runs.flatMap((run) => [
      {
        name: `webhook events/s (${run.database})`,
        value: Math.round(run.measured.perSecond),
        unit: "events/s",
        target: targets[run.database],
        bare: { value: Math.round(bare.perSecond), unit: "req/s" },
        detail: {
          p50Ms: run.measured.p50,
          p99Ms: run.measured.p99,
          events: run.measured.count,
          connections: CONNECTIONS,
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
    await writeFile(
      JSON_FILE,
      `${JSON.stringify({ bench: "webhooks", date: started.toISOString(), results }, null, 2)}\n`,
    );
    console.log(`Results: ${JSON_FILE}`);
  }
  if (runs.some((run) => run.problems.length > 0)) {
    console.error("\nbench:webhooks: events were lost or not applied (see above)");
    process.exitCode = 1;
  }
}

runBench("bench:webhooks", main);
