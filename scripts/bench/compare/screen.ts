/**
 * bench:compare's screening half: one server from one tree on one database, set up as the
 * issue's "six templates" merchant, filled, then the two loads (closed loop, paced at --rate)
 * with the server's CPU in the closed loop. bench:screen's merchant calls, fill, stream,
 * autocannon load and paced load do the work (scripts/bench/screen/, paced-load.ts).
 */
import { BENCH_ADMIN_URL, sleep, tail } from "../../lib/bench-process.ts";
import { cpuSeconds, memoryMb } from "../machine.ts";
import { type PacedResult, pacedLoad } from "../paced-load.ts";
import { type CannonSummary, cannon } from "../screen/cannon.ts";
import { fill, type Headers } from "../screen/fill.ts";
import { setUpSixTemplatesMerchant } from "../screen/merchant.ts";
import { ms, options } from "../screen/options.ts";
import { benchBare } from "../screen/runs.ts";
import { makePopulation } from "../screen/traffic/population.ts";
import { screenStream } from "../screen/traffic/stream.ts";
import { type DatabaseKind, launchWarden } from "../warden.ts";

export type ScreenLoads = {
  closed: CannonSummary;
  /** The server's CPU time in the closed loop over its 2xx answers, in ms; null: unreadable. */
  cpuMsEach: number | null;
  paced: PacedResult;
};

/** The closed loop (options.connections) then the paced load (options.rate) against one URL. */
export async function screenLoads(
  label: string,
  url: string,
  headers: Headers,
  body: () => string,
  pid: number | undefined,
): Promise<ScreenLoads> {
  const { connections, rate, seconds } = options;
  const cpuBefore = cpuSeconds(pid);
  const closed = await cannon(
    `${label}: closed loop, ${connections} connections`,
    url,
    headers,
    body,
    {
      connections,
    },
  );
  const cpuAfter = cpuSeconds(pid);
  const cpuMsEach =
    cpuBefore === null || cpuAfter === null || closed.ok === 0
      ? null
      : ((cpuAfter - cpuBefore) * 1000) / closed.ok;
  await sleep(1000);
  console.error(`${label}: paced ${rate} req/s for ${seconds} s`);
  const paced = await pacedLoad({ url, rate, seconds, headers, body });
  console.error(
    `${label}: paced: ${paced.achieved.toFixed(0)} req/s answered 2xx; p50 ${ms(paced.p50)}, ` +
      `p99 ${ms(paced.p99)}; non-2xx ${paced.non2xx}, socket errors ${paced.errors}, ` +
      `${paced.unanswered} unanswered, ${paced.dropped} not sent`,
  );
  return { closed, cpuMsEach, paced };
}

/** The bare route given the same two loads. */
export const screenBare = (workDir: string) => benchBare(workDir, screenLoads);

export type ScreenRun = ScreenLoads & {
  /** The server's resident memory once it answered /healthz, before the merchant's setup. */
  rssAfterStartMb: number | null;
  fill: Awaited<ReturnType<typeof fill>>;
  /** Non-2xx answers and socket errors, fill included. */
  errors: number;
};

/**
 * One screening server from `root` on `kind` (`nodeArgs` added to its Node flags): started,
 * set up, filled, loaded, stopped.
 */
export async function screenRun(
  label: string,
  root: string,
  kind: DatabaseKind,
  workDir: string,
  nodeArgs: readonly string[] = [],
): Promise<ScreenRun> {
  const warden = await launchWarden(kind, workDir, {
    adminUrl: BENCH_ADMIN_URL,
    databasePrefix: "warden_bench_compare",
    env: { SCREEN_RATE_LIMIT: "10000000" },
    root,
    nodeArgs,
  });
  try {
    await warden.ready();
    const rssAfterStartMb = memoryMb(warden.child.pid)?.rssMb ?? null;
    const key = await setUpSixTemplatesMerchant(warden.base, warden.dataDir);
    const url = `${warden.base}/api/v1/screen`;
    const headers = { "content-type": "application/json", authorization: `Bearer ${key}` };
    const stream = screenStream(makePopulation(), 7, kind);
    const filled = await fill(label, url, headers, stream.next, options.fill);
    const loads = await screenLoads(label, url, headers, stream.next, warden.child.pid);
    const { closed, paced } = loads;
    const errors =
      filled.count -
      (filled.statuses[200] ?? 0) +
      closed.non2xx +
      closed.errors +
      paced.non2xx +
      paced.errors;
    return { ...loads, rssAfterStartMb, fill: filled, errors };
  } catch (error) {
    (error as Error).message +=
      `\n--- ${label}: the server's log, last lines:\n${tail(warden.logFile, 25)}`;
    throw error;
  } finally {
    await warden.close();
  }
}
