/**
 * The dashboard load over real HTTP for `npm run bench:dashboard`: the real server
 * (server/main.ts) and a bare Fastify route (scripts/bench/bare-server.ts) each in a process of their own,
 * the load from this one. The request is the one the console's dashboard page sends on load:
 * one batched tRPC GET of dashboard.summary and the first page of dashboard.list (50 rows),
 * with the session cookie. Sequential requests give the single-user latency (median, p95);
 * autocannon gives throughput, next to the bare route's under the same load.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon, { type Options } from "autocannon";
import { freePort, HOST, stop } from "../../lib/bench-process.ts";
import { addUser, login, start, waitFor } from "./http-processes.ts";

/** What httpBatchLink sends for the page's two queries (react-query adds `direction`). */
const BATCH_PATH = `/trpc/dashboard.summary,dashboard.list?batch=1&input=${encodeURIComponent(
  JSON.stringify({ 1: { limit: 50, direction: "forward" } }),
)}`;

export type HttpFigures = {
  sequential: { runs: number; median: number; p95: number; bareMedian: number; bareP95: number };
  throughput: { connections: number; seconds: number; rps: number; bareRps: number; p99: number };
};

type HttpOptions = {
  databaseUrl: string;
  accountId: string;
  runs: number;
  seconds: number;
  connections: number;
};

/** The URLs and the session header, once both processes answer and the batch answers whole. */
type Targets = { page: string; bare: string; headers: Record<string, string> };

async function startBoth(
  options: HttpOptions,
  dataDir: string,
  children: ChildProcess[],
): Promise<Targets> {
  const email = `bench-${Date.now()}@example.com`;
  await addUser(options.databaseUrl, options.accountId, email);
  const [port, barePort] = [await freePort(), await freePort()];
  const base = `http://${HOST}:${port}`;
  const bare = `http://${HOST}:${barePort}/bare`;
  children.push(
    start("server/main.ts", {
      DATABASE_URL: options.databaseUrl,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST,
      PUBLIC_URL: base,
      LOG_LEVEL: "warn",
    }),
    start("scripts/bench/bare-server.ts", { PORT: String(barePort) }),
  );
  const token = await login(base, email);
  const headers = { cookie: `warden_session=${token}` };
  await waitFor(() => fetch(bare, { method: "POST", body: "{}" }));

  const check = await fetch(`${base}${BATCH_PATH}`, { headers });
  const body = (await check.json()) as { result?: unknown }[];
  if (!check.ok || !Array.isArray(body) || body.some((part) => !part.result)) {
    throw new Error(`dashboard batch: HTTP ${check.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  return { page: `${base}${BATCH_PATH}`, bare, headers };
}

async function sequential(call: () => Promise<unknown>, runs: number) {
  for (let i = 0; i < 5; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(runs - 1, Math.ceil(q * runs) - 1)] ?? 0;
  return { median: at(0.5), p95: at(0.95) };
}

async function measure(options: HttpOptions, { page, bare, headers }: Targets) {
  const bareInit = { method: "POST", headers: { "content-type": "application/json" }, body: "{}" };
  const dashboard = () => fetch(page, { headers }).then((r) => r.arrayBuffer());
  const bareCall = () => fetch(bare, bareInit).then((r) => r.arrayBuffer());
  const one = await sequential(dashboard, options.runs);
  const floor = await sequential(bareCall, options.runs);

  const load = (url: string, extra: Partial<Options>) =>
    autocannon({ url, connections: options.connections, duration: options.seconds, ...extra });
  const loaded = await load(page, { headers });
  const bareLoaded = await load(bare, bareInit);
  if (loaded.non2xx > 0) throw new Error(`dashboard under load: ${loaded.non2xx} non-2xx`);
  return {
    sequential: {
      runs: options.runs,
      median: one.median,
      p95: one.p95,
      bareMedian: floor.median,
      bareP95: floor.p95,
    },
    throughput: {
      connections: options.connections,
      seconds: options.seconds,
      rps: loaded.requests.average,
      bareRps: bareLoaded.requests.average,
      p99: loaded.latency.p99,
    },
  };
}

export async function benchDashboardHttp(options: HttpOptions): Promise<HttpFigures> {
  const children: ChildProcess[] = [];
  const dataDir = await mkdtemp(join(tmpdir(), "warden-bench-http-"));
  try {
    return await measure(options, await startBoth(options, dataDir, children));
  } finally {
    await Promise.all(children.map(stop));
    await rm(dataDir, { recursive: true, force: true });
  }
}
