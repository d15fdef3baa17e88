/** bench:screen's runs: the bare route, and Warden on one database (set up, filled, loaded). */
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { stop, tail } from "../../lib/bench-process.ts";
import { startBare } from "../bare.ts";
import { sampleWaits, serverProblems, sessionCpu } from "../server-log.ts";
import { type DatabaseKind, launchWarden, type WardenProcess } from "../warden.ts";
import { fill, type Headers } from "./fill.ts";
import { type Loads, loads } from "./loads.ts";
import { setUpMerchant } from "./merchant.ts";
import { options } from "./options.ts";
import { storeHistory } from "./stored.ts";
import { makePopulation } from "./traffic/population.ts";
import { screenStream } from "./traffic/stream.ts";

/** The loads a run gives one URL: bench:screen's three (loads.ts), or bench:compare's two. */
type LoadsOf<T> = (
  label: string,
  url: string,
  headers: Headers,
  body: () => string,
  pid: number | undefined,
) => Promise<T>;

/** The bare route given the same loads (default: the three) and bodies. */
export async function benchBare(workDir: string): Promise<Loads>;
export async function benchBare<T>(workDir: string, run: LoadsOf<T>): Promise<T>;
export async function benchBare(workDir: string, run: LoadsOf<unknown> = loads) {
  const { url, child } = await startBare(workDir);
  const stream = screenStream(makePopulation(), 99, "bare");
  try {
    return await run(
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

export type WardenRun = Awaited<ReturnType<typeof measure>>;

/** The token the bench's Warden serves /metrics with (it listens on 127.0.0.1 only). */
const METRICS_TOKEN = "bench-screen-metrics";

/** The server's own view of its memory (/metrics: prom-client's process and V8 gauges), in MB. */
async function memoryOf(base: string) {
  try {
    const response = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const text = await response.text();
    const gauge = (name: string) => {
      const value = new RegExp(`^${name} (\\S+)`, "m").exec(text)?.[1];
      return value === undefined ? Number.NaN : Math.round(Number(value) / 1024 / 1024);
    };
    return {
      rssMb: gauge("process_resident_memory_bytes"),
      heapTotalMb: gauge("nodejs_heap_size_total_bytes"),
      heapUsedMb: gauge("nodejs_heap_size_used_bytes"),
      externalMb: gauge("nodejs_external_memory_bytes"),
    };
  } catch {
    return null;
  }
}

/**
 * Warden on one database, run from the checkout at `root` (default: this one); its server log
 * is kept in resultsDir if anything went wrong.
 */
export async function benchWarden(
  kind: DatabaseKind,
  workDir: string,
  resultsDir: string,
  stamp: string,
  root?: string,
): Promise<WardenRun> {
  const warden = await launchWarden(kind, workDir, {
    adminUrl: options.pgAdminUrl,
    databasePrefix: "warden_bench_screen",
    env: { SCREEN_RATE_LIMIT: "10000000", METRICS_TOKEN },
    root,
  });
  const savedLog = join(resultsDir, `screen-${stamp}-${kind}-server.log`);
  try {
    await warden.ready();
    return await measure(warden, savedLog);
  } catch (error) {
    await copyFile(warden.logFile, savedLog).catch(() => {});
    (error as Error).message +=
      `\n--- the ${warden.label} server's log (${savedLog}), last lines:\n${tail(warden.logFile, 25)}`;
    throw error;
  } finally {
    await warden.close();
  }
}

async function measure(warden: WardenProcess, savedLog: string) {
  const { kind, label, base, logFile } = warden;
  const key = await setUpMerchant(base, warden.dataDir);
  const url = `${base}/api/v1/screen`;
  const headers = { "content-type": "application/json", authorization: `Bearer ${key}` };
  const population = makePopulation();
  console.error(
    `${label}: merchant set up (15 rules, 2 templates, an API key); population ` +
      `${population.size.people} people, ${population.size.devices} devices, ` +
      `${population.size.ips} addresses, ${population.size.cards} cards`,
  );
  const stream = screenStream(population, 7, kind);
  const stored =
    options.stored > 0 && warden.databaseUrl
      ? await storeHistory(
          label,
          warden.databaseUrl,
          options.stored,
          options.storedLegacy ? null : warden.encryptionKey,
        )
      : null;
  const filled = await fill(label, url, headers, stream.next, options.fill);
  const sampler = warden.databaseUrl ? sampleWaits(warden.databaseUrl) : null;
  const sessions = warden.databaseUrl ? sessionCpu(warden.databaseUrl) : null;
  const measured = await loads(label, url, headers, stream.next, warden.child.pid, sessions);
  await sessions?.close();
  const memory = await memoryOf(base);
  if (memory)
    console.error(
      `${label}: server memory after the loads: RSS ${memory.rssMb} MB; V8 heap ${memory.heapTotalMb} MB ` +
        `(${memory.heapUsedMb} MB used), outside it (buffers, ${kind === "embedded" ? "PGlite's WebAssembly memory, " : ""}` +
        `code, stacks, malloc) ${memory.rssMb - memory.heapTotalMb} MB`,
    );
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
  const keepLog = errors > 0 || problems.length > 0;
  if (keepLog) await copyFile(logFile, savedLog);
  return {
    database: kind,
    postgresSessionSamples: waits,
    stored,
    fill: filled,
    ...measured,
    serverMemoryBreakdown: memory,
    errors,
    serverProblems: problems,
    serverLog: keepLog ? savedLog : null,
    mix: stream.counts,
  };
}
