/** The three loads bench:screen gives one URL: flat out, autocannon at --rate, paced at --rate. */
import { sleep } from "../../lib/bench-process.ts";
import { progressBar } from "../../lib/progress.ts";
import { memoryMb, withCpu } from "../machine.ts";
import { type PacedResult, pacedLoad } from "../paced-load.ts";
import { cpuBetween, type sessionCpu } from "../server-log.ts";
import { type CannonSummary, cannon } from "./cannon.ts";
import type { Headers } from "./fill.ts";
import { ms, options } from "./options.ts";

export type Loads = {
  max: CannonSummary;
  rate: CannonSummary;
  paced: PacedResult;
  /** The server process's CPU use during each load (100 = one core busy). */
  serverCpuPercent: { max: number; rate: number; paced: number };
  /** Its PostgreSQL sessions' CPU during each load, the same way; null: not measured. */
  databaseCpuPercent: { max: number; rate: number; paced: number } | null;
  /** The server process's resident memory after the loads, and its peak (fill included). */
  serverMemoryMb: { rssMb: number; peakMb: number } | null;
};

async function paced(label: string, url: string, headers: Headers, body: () => string) {
  const bar = progressBar(label);
  const started = Date.now();
  const timer = setInterval(
    () => bar.update(((Date.now() - started) / 1000 / options.seconds) * 100),
    1000,
  );
  const result = await pacedLoad({
    url,
    rate: options.rate,
    seconds: options.seconds,
    headers,
    body,
  });
  clearInterval(timer);
  bar.done(
    `${label}: ${result.achieved.toFixed(0)} req/s answered 2xx; p50 ${ms(result.p50)}, p99 ${ms(result.p99)}; ` +
      `non-2xx ${result.non2xx}, socket errors ${result.errors}; at most ${result.maxInFlight} in flight, ${result.unanswered} unanswered 10 s after the last, ${result.dropped} not sent (more than 1,000 waiting)`,
  );
  return result;
}

/**
 * Runs `run` and says how busy the server process `pid` was meanwhile, and its database
 * sessions when `sessions` can see them, in percent of one core.
 */
async function withCpus<T>(
  pid: number | undefined,
  sessions: ReturnType<typeof sessionCpu>,
  run: () => Promise<T>,
): Promise<[T, number, number]> {
  const before = await sessions?.snapshot();
  const t0 = performance.now();
  const [result, cpu] = await withCpu(pid, run);
  const after = await sessions?.snapshot();
  const seconds = (performance.now() - t0) / 1000;
  const db = before && after ? Math.round((cpuBetween(before, after) / seconds) * 100) : Number.NaN;
  return [result, cpu, db];
}

/**
 * The three loads against one URL, with the CPU the process `pid` used in each, and its
 * PostgreSQL sessions (`sessions`) if given.
 */
export async function loads(
  label: string,
  url: string,
  headers: Headers,
  body: () => string,
  pid: number | undefined,
  sessions: ReturnType<typeof sessionCpu> = null,
): Promise<Loads> {
  const { connections, rate: RATE, rateConnections } = options;
  const [max, maxCpu, maxDb] = await withCpus(pid, sessions, () =>
    cannon(`${label}: max, ${connections} connections`, url, headers, body, { connections }),
  );
  await sleep(1000);
  const [rate, rateCpu, rateDb] = await withCpus(pid, sessions, () =>
    cannon(
      `${label}: autocannon overallRate ${RATE}, ${rateConnections} connections`,
      url,
      headers,
      body,
      { connections: rateConnections, overallRate: RATE },
    ),
  );
  await sleep(1000);
  const [steady, pacedCpu, pacedDb] = await withCpus(pid, sessions, () =>
    paced(`${label}: paced ${RATE} req/s`, url, headers, body),
  );
  console.error(
    `${label}: server process CPU ${maxCpu} % (max), ${rateCpu} % (autocannon ${RATE}/s), ${pacedCpu} % (paced)`,
  );
  if (sessions)
    console.error(
      `${label}: its PostgreSQL sessions' CPU ${maxDb} % (max), ${rateDb} % (autocannon ${RATE}/s), ${pacedDb} % (paced)`,
    );
  return {
    max,
    rate,
    paced: steady,
    serverCpuPercent: { max: maxCpu, rate: rateCpu, paced: pacedCpu },
    databaseCpuPercent: sessions ? { max: maxDb, rate: rateDb, paced: pacedDb } : null,
    serverMemoryMb: memoryMb(pid),
  };
}
