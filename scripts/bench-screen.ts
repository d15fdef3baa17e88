/**
 * `npm run bench:screen`: POST /api/v1/screen over real HTTP against the real server, run as a
 * separate process (compiled, as `npm start` runs it: bench-process.ts), on PostgreSQL and on
 * the embedded database, next to a bare Fastify route (scripts/bench/bare-server.ts) in a process
 * of its own. The harness (loads, the bare route, the machine line) is in scripts/bench/.
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
 * Options: --db postgres|embedded (default both), --fill 20000, --duration 12 (seconds per
 * load), --connections 32, --rate 1000, --rate-connections 10. Prints a Markdown table and
 * writes bench/results/screen-<date>.json; --json <file> also writes the summary `npm run bench`
 * collects. Traffic goes to 127.0.0.1 only. Every child process
 * is stopped at the end, on error and on Ctrl-C.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { startBare } from "./bench/bare.ts";
import { percentile, runLoad } from "./bench/load.ts";
import {
  gitCommit,
  loadAverage,
  machineLine,
  machine as thisMachine,
  withCpu,
} from "./bench/machine.ts";
import { runBench } from "./bench/main.ts";
import { type PacedResult, pacedLoad } from "./bench/paced-load.ts";
import {
  benchDatabase,
  call,
  cleanups,
  freePort,
  HOST,
  ROOT,
  signUpMerchant,
  sleep,
  start,
  stop,
  tail,
  waitUntil,
} from "./lib/bench-process.ts";
import { flags, progressBar } from "./lib/progress.ts";
import { MIX, makePopulation, SHOP, screenStream } from "./lib/screen-traffic.ts";

const args = flags();
const DBS = (args.db ? [args.db] : ["postgres", "embedded"]) as ("postgres" | "embedded")[];
const FILL = Number(args.fill ?? 20_000);
const SECONDS = Number(args.duration ?? 12);
const CONNECTIONS = Number(args.connections ?? 32);
const RATE = Number(args.rate ?? 1000);
const RATE_CONNECTIONS = Number(args["rate-connections"] ?? 10);
const FILL_CONCURRENCY = 16;
const PG_ADMIN_URL =
  process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const PASSWORD = "bench screen password";

for (const db of DBS) {
  if (db !== "postgres" && db !== "embedded") {
    console.error(`--db must be postgres or embedded (got "${db}")`);
    process.exit(2);
  }
}

async function setUpMerchant(base: string, dataDir: string): Promise<string> {
  const token = await signUpMerchant(base, dataDir, PASSWORD);
  const rules = await call<Record<string, unknown>>(base, "/api/rules", { token });
  const allOn = Object.fromEntries(
    Object.entries(rules).map(([key, value]) => [key, typeof value === "boolean" ? true : value]),
  );
  await call(base, "/api/rules", { method: "PUT", token, body: allOn });
  const templates = await call<Record<string, boolean>>(base, "/api/templates", { token });
  await call(base, "/api/templates", {
    method: "PUT",
    token,
    body: {
      ...templates,
      template_one_human_one_trial: true,
      template_account_farm_shield: true,
    },
  });
  await call(base, "/api/rule-settings", {
    method: "PUT",
    token,
    body: { rule_referrer_mismatch: { allowed_origins: [SHOP] } },
  });
  const on = await call<Record<string, unknown>>(base, "/api/rules", { token });
  const off = Object.entries(on).filter(([k, v]) => k.startsWith("rule_") && v !== true);
  if (off.length > 0) throw new Error(`rules still off: ${off.map(([k]) => k).join(", ")}`);
  const { key } = await call<{ key: string }>(base, "/api/api-keys", {
    token,
    body: { name: "bench" },
  });
  return key;
}

// ---------------------------------------------------------------------------------------
// Loads

type Headers = Record<string, string>;
type Tally = {
  statuses: Record<string, number>;
  decisions: Record<string, number>;
  samples: string[];
};

/** Sends `count` screenings, FILL_CONCURRENCY at a time, to fill the velocity windows. */
async function fill(
  label: string,
  url: string,
  headers: Headers,
  body: () => string,
  count: number,
) {
  const bar = progressBar(`${label}: filling the velocity windows`);
  const tally: Tally = { statuses: {}, decisions: {}, samples: [] };
  let next = 0;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: FILL_CONCURRENCY }, async () => {
      while (next < count) {
        next++;
        const response = await fetch(url, { method: "POST", headers, body: body() });
        const text = await response.text();
        tally.statuses[response.status] = (tally.statuses[response.status] ?? 0) + 1;
        if (response.status === 200) {
          const decision = (JSON.parse(text) as { decision: string }).decision;
          tally.decisions[decision] = (tally.decisions[decision] ?? 0) + 1;
        } else if (tally.samples.length < 5) tally.samples.push(`${response.status} ${text}`);
        if (++done % 100 === 0 || done === count) {
          const rate = done / ((performance.now() - started) / 1000);
          bar.update((done / count) * 100, `${done}/${count} (${rate.toFixed(0)}/s)`);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  bar.done(
    `${label}: ${count} screenings in ${seconds.toFixed(1)} s (${(count / seconds).toFixed(0)}/s); ` +
      `decisions ${JSON.stringify(tally.decisions)}; HTTP ${JSON.stringify(tally.statuses)}`,
  );
  return { count, seconds, ...tally };
}

type CannonSummary = {
  connections: number;
  overallRate: number | null;
  seconds: number;
  requestsPerSecond: number;
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Latency of 2xx answers in ms, measured per response (sub-millisecond). */
  latency: { p50: number; p90: number; p99: number; max: number };
  /** autocannon's own histogram (whole milliseconds). */
  autocannonLatency: { p50: number; p99: number };
  non2xxSamples: string[];
};

async function cannon(
  label: string,
  url: string,
  headers: Headers,
  body: () => string,
  options: { connections: number; overallRate?: number },
): Promise<CannonSummary> {
  const samples: string[] = [];
  let lastSecond = 0;
  const { result, latencies, done } = await runLoad(
    label,
    {
      url,
      method: "POST",
      headers,
      connections: options.connections,
      duration: SECONDS,
      timeout: 10,
      ...(options.overallRate ? { overallRate: options.overallRate } : {}),
      requests: [
        { method: "POST", headers, setupRequest: (request) => ({ ...request, body: body() }) },
      ],
      setupClient(client) {
        let status = 0;
        client.on("headers", (h: { statusCode: number }) => {
          status = h.statusCode;
        });
        client.on("body", (chunk: Buffer) => {
          if ((status < 200 || status > 299) && samples.length < 5) {
            samples.push(`${status} ${chunk.toString("utf8").slice(0, 500)}`);
          }
        });
      },
    },
    ({ elapsed, answered }) => {
      const detail = `${answered - lastSecond} req in the last second`;
      lastSecond = answered;
      return { percent: (elapsed / SECONDS) * 100, detail };
    },
  );
  const at = (q: number) => percentile(latencies, q);
  const summary: CannonSummary = {
    connections: options.connections,
    overallRate: options.overallRate ?? null,
    seconds: result.duration,
    requestsPerSecond: result["2xx"] / result.duration,
    sent: result.requests.sent,
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]),
    ),
    latency: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: latencies.at(-1) ?? 0 },
    autocannonLatency: { p50: result.latency.p50, p99: result.latency.p99 },
    non2xxSamples: samples,
  };
  done(
    `${summary.requestsPerSecond.toFixed(0)} req/s answered 2xx; p50 ${ms(summary.latency.p50)}, ` +
      `p99 ${ms(summary.latency.p99)}; non-2xx ${summary.non2xx}, socket errors ${summary.errors}`,
  );
  return summary;
}

async function paced(label: string, url: string, headers: Headers, body: () => string) {
  const bar = progressBar(label);
  const started = Date.now();
  const timer = setInterval(
    () => bar.update(((Date.now() - started) / 1000 / SECONDS) * 100),
    1000,
  );
  const result = await pacedLoad({ url, rate: RATE, seconds: SECONDS, headers, body });
  clearInterval(timer);
  bar.done(
    `${label}: ${result.achieved.toFixed(0)} req/s answered 2xx; p50 ${ms(result.p50)}, p99 ${ms(result.p99)}; ` +
      `non-2xx ${result.non2xx}, socket errors ${result.errors}; at most ${result.maxInFlight} in flight, ${result.unanswered} unanswered 10 s after the last, ${result.dropped} not sent (more than 1,000 waiting)`,
  );
  return result;
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

type Loads = {
  max: CannonSummary;
  rate: CannonSummary;
  paced: PacedResult;
  /** The server process's CPU use during each load (100 = one core busy). */
  serverCpuPercent: { max: number; rate: number; paced: number };
};

/** The three loads against one URL: flat out, autocannon at RATE, paced at RATE. */
async function loads(
  label: string,
  url: string,
  headers: Headers,
  body: () => string,
  pid: number | undefined,
): Promise<Loads> {
  const [max, maxCpu] = await withCpu(pid, () =>
    cannon(`${label}: max, ${CONNECTIONS} connections`, url, headers, body, {
      connections: CONNECTIONS,
    }),
  );
  await sleep(1000);
  const [rate, rateCpu] = await withCpu(pid, () =>
    cannon(
      `${label}: autocannon overallRate ${RATE}, ${RATE_CONNECTIONS} connections`,
      url,
      headers,
      body,
      { connections: RATE_CONNECTIONS, overallRate: RATE },
    ),
  );
  await sleep(1000);
  const [steady, pacedCpu] = await withCpu(pid, () =>
    paced(`${label}: paced ${RATE} req/s`, url, headers, body),
  );
  console.error(
    `${label}: server process CPU ${maxCpu} % (max), ${rateCpu} % (autocannon ${RATE}/s), ${pacedCpu} % (paced)`,
  );
  return {
    max,
    rate,
    paced: steady,
    serverCpuPercent: { max: maxCpu, rate: rateCpu, paced: pacedCpu },
  };
}

// ---------------------------------------------------------------------------------------
// Runs

async function benchBare(workDir: string) {
  const { url, child } = await startBare(workDir);
  const stream = screenStream(makePopulation(), 99, "bare");
  try {
    return await loads(
      "bare route",
      url,
      { "content-type": "application/json" },
      stream.next,
      child.pid,
    );
  } finally {
    await stop(child);
  }
}

async function benchWarden(
  kind: "postgres" | "embedded",
  workDir: string,
  resultsDir: string,
  stamp: string,
) {
  const dataDir = await mkdtemp(join(workDir, `${kind}-`));
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  const env: Record<string, string> = {
    PORT: String(port),
    HOST,
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    SCREEN_RATE_LIMIT: "10000000",
  };
  let dropDatabase: (() => Promise<void>) | null = null;
  if (kind === "postgres") {
    const database = await benchDatabase(PG_ADMIN_URL, "warden_bench_screen");
    dropDatabase = database.drop;
    env.DATABASE_URL = database.url;
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
    const key = await setUpMerchant(base, dataDir);
    const url = `${base}/api/v1/screen`;
    const headers = { "content-type": "application/json", authorization: `Bearer ${key}` };
    const population = makePopulation();
    console.error(
      `${label}: merchant set up (15 rules, 2 templates, an API key); population ` +
        `${population.size.people} people, ${population.size.devices} devices, ` +
        `${population.size.ips} addresses, ${population.size.cards} cards`,
    );
    const stream = screenStream(population, 7, kind);
    const filled = await fill(label, url, headers, stream.next, FILL);
    const sampler = env.DATABASE_URL ? sampleWaits(env.DATABASE_URL) : null;
    const measured = await loads(label, url, headers, stream.next, child.pid);
    const waits = sampler ? await sampler.stop() : null;
    if (waits)
      console.error(
        `${label}: what the server's PostgreSQL sessions were doing (samples): ${JSON.stringify(waits)}`,
      );
    const problems = serverProblems(logFile);
    const errors =
      filled.count -
      (filled.statuses[200] ?? 0) +
      [measured.max, measured.rate].reduce((n, r) => n + r.non2xx + r.errors, 0) +
      measured.paced.non2xx +
      measured.paced.errors;
    let savedLog: string | null = null;
    if (errors > 0 || problems.length > 0) {
      savedLog = join(resultsDir, `screen-${stamp}-${kind}-server.log`);
      await copyFile(logFile, savedLog);
    }
    return {
      database: kind,
      postgresSessionSamples: waits,
      fill: filled,
      ...measured,
      errors,
      serverProblems: problems,
      serverLog: savedLog,
      mix: stream.counts,
    };
  } catch (error) {
    const saved = join(resultsDir, `screen-${stamp}-${kind}-server.log`);
    await copyFile(logFile, saved).catch(() => {});
    (error as Error).message +=
      `\n--- the ${label} server's log (${saved}), last lines:\n${tail(logFile, 25)}`;
    throw error;
  } finally {
    await stop(child);
    await dropDatabase?.();
  }
}

/**
 * Every 250 ms, what the server's PostgreSQL sessions are doing (state and wait event, e.g.
 * "active Lock:advisory" or "idle in transaction ClientRead"): where the time goes.
 */
function sampleWaits(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  const counts: Record<string, number> = {};
  let running = true;
  const loop = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query<{ what: string; n: number }>(
        `SELECT concat_ws(' ', state, wait_event_type || ':' || wait_event) AS what, count(*)::int AS n
           FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
          GROUP BY 1`,
      );
      for (const row of rows) counts[row.what] = (counts[row.what] ?? 0) + row.n;
      await sleep(250);
    }
    await client.end();
  })();
  return {
    async stop() {
      running = false;
      await loop.catch(() => {});
      return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1]));
    },
  };
}

/** Distinct warnings and errors from the server's log (pino JSON lines), most frequent first. */
function serverProblems(logFile: string) {
  const seen = new Map<string, number>();
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    if (!line.trim()) continue;
    let key = line.slice(0, 300);
    try {
      const entry = JSON.parse(line) as {
        level?: number;
        msg?: string;
        err?: { type?: string; message?: string };
      };
      if ((entry.level ?? 0) < 40) continue;
      key = [entry.msg, entry.err?.type, entry.err?.message?.split("\n")[0]?.slice(0, 300)]
        .filter(Boolean)
        .join(": ");
    } catch {
      // not JSON: stderr text, kept as is
    }
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].sort((a, b) => b[1] - a[1]).map(([message, count]) => ({ count, message }));
}

/** The results in the shape `npm run bench` collects (scripts/bench.ts). */
function summaryOf(
  bare: Awaited<ReturnType<typeof benchBare>>,
  runs: {
    database: string;
    max: { requestsPerSecond: number };
    paced: PacedResult;
    errors: number;
  }[],
) {
  const label = (database: string) => (database === "postgres" ? "PostgreSQL" : "embedded");
  return {
    bench: "screen",
    results: runs.flatMap((run) => [
      {
        name: `screening, most req/s (${label(run.database)})`,
        value: Math.round(run.max.requestsPerSecond),
        unit: "req/s",
        target: null,
        bare: { value: Math.round(bare.max.requestsPerSecond), unit: "req/s" },
        detail: { errors: run.errors, connections: CONNECTIONS },
      },
      {
        name: `screening p99 at ${RATE} req/s paced (${label(run.database)})`,
        value: Number(run.paced.p99.toFixed(1)),
        unit: "ms",
        target: null,
        bare: { value: Number(bare.paced.p99.toFixed(1)), unit: "ms" },
        detail: { p50: run.paced.p50, answeredPerSecond: Math.round(run.paced.achieved) },
      },
    ]),
  };
}

async function main() {
  const started = new Date();
  const stamp = started.toISOString().slice(0, 16).replace(":", "");
  const resultsDir = join(ROOT, "bench", "results");
  await mkdir(resultsDir, { recursive: true });
  const workDir = await mkdtemp(join(tmpdir(), "warden-bench-screen-"));
  cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  const machine = thisMachine();
  console.error(
    `bench:screen: ${DBS.join(" and ")}; fill ${FILL}; ${SECONDS} s per load; ${machineLine(machine)}`,
  );

  console.error("\nbare Fastify route: starting");
  const bare = await benchBare(workDir);
  const runs = [];
  for (const kind of DBS) runs.push(await benchWarden(kind, workDir, resultsDir, stamp));

  const rows = [
    "| database | max req/s | bare route req/s | ratio | p50 / p99 at 1,000 req/s offered, paced | answered req/s, paced | p50 / p99 at 1,000 req/s, autocannon | errors |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const pair = (p50: number, p99: number) => `${ms(p50)} / ${ms(p99)}`;
  for (const run of runs) {
    rows.push(
      `| ${run.database === "postgres" ? "PostgreSQL" : "embedded"} | ${run.max.requestsPerSecond.toFixed(0)} | ` +
        `${bare.max.requestsPerSecond.toFixed(0)} | ${((run.max.requestsPerSecond / bare.max.requestsPerSecond) * 100).toFixed(1)} % | ` +
        `${pair(run.paced.p50, run.paced.p99)} | ${run.paced.achieved.toFixed(0)} | ${pair(run.rate.latency.p50, run.rate.latency.p99)} | ${run.errors} |`,
    );
  }
  rows.push(
    `| (bare route) | ${bare.max.requestsPerSecond.toFixed(0)} | | | ${pair(bare.paced.p50, bare.paced.p99)} | ${bare.paced.achieved.toFixed(0)} | ` +
      `${pair(bare.rate.latency.p50, bare.rate.latency.p99)} | ${bare.max.non2xx + bare.rate.non2xx + bare.paced.non2xx} |`,
  );
  const table = rows.join("\n");
  const file = join(resultsDir, `screen-${stamp}.json`);
  await writeFile(
    file,
    `${JSON.stringify(
      {
        date: started.toISOString(),
        commit: gitCommit(),
        machine: { ...machine, loadavgAtEnd: loadAverage() },
        options: {
          fill: FILL,
          seconds: SECONDS,
          connections: CONNECTIONS,
          rate: RATE,
          rateConnections: RATE_CONNECTIONS,
          mix: Object.fromEntries(MIX),
        },
        bare,
        runs,
        table,
      },
      null,
      2,
    )}\n`,
  );
  if (args.json) await writeFile(args.json, `${JSON.stringify(summaryOf(bare, runs), null, 2)}\n`);
  console.log(
    `\n${table}\n\n${machineLine(machine)}. max: ${CONNECTIONS} connections, ${SECONDS} s. At ${RATE} req/s: "paced" sends one ` +
      `request every ${(1000 / RATE).toFixed(1)} ms whatever the answers (open loop); ` +
      `"autocannon" is overallRate ${RATE} over ${RATE_CONNECTIONS} connections (each sends its ` +
      `share of a second back to back). "answered req/s, paced": 2xx answers a second until the last came back (below 1,000 = the server fell behind, and its latency is its queue). Errors: non-2xx answers and socket errors, fill included.\n` +
      `Results: ${file}`,
  );
  for (const run of runs) {
    for (const r of [run.max, run.rate]) {
      if (r.non2xxSamples.length)
        console.log(`${run.database} non-2xx: ${r.non2xxSamples.join("\n  ")}`);
    }
    if (run.serverProblems.length) {
      console.log(`\n${run.database}: the server logged (count, message):`);
      for (const p of run.serverProblems.slice(0, 10)) console.log(`  ${p.count}× ${p.message}`);
      console.log(`  full log: ${run.serverLog}`);
    }
  }
}

runBench("bench:screen", main);
