/** bench:webhooks' runs: the bare route, and Warden on one database (set up, loaded, checked). */
import { call, signUpMerchant, stop, tail } from "../../lib/bench-process.ts";
import { startBare } from "../bare.ts";
import { cpuSeconds, memoryMb } from "../machine.ts";
import { type DatabaseKind, launchWarden, turnAllRulesOn, type WardenProcess } from "../warden.ts";
import { load } from "./load.ts";
import { batchSizes, perStatement } from "./metrics.ts";
import { METRICS_TOKEN, options, PASSWORD, SECRET_KEY, SIGNING_SECRET } from "./options.ts";
import { webhookStream } from "./traffic.ts";
import { readStored, storedProblems } from "./verify.ts";

/** The server process's resident memory in MB. */
const rssMb = (pid: number | undefined) => memoryMb(pid)?.rssMb ?? null;

/** The bare route given the same bodies for options.bareSeconds. */
export async function benchBare(workDir: string) {
  const { url, child } = await startBare(workDir);
  // The same bodies as the webhooks (signed, though the bare route does not check).
  const stream = webhookStream(SIGNING_SECRET, "bare");
  // Built before the clock starts, as for Warden's run; sent round again if the route is fast.
  const next = stream.prebuilt(20_000);
  try {
    return await load("bare route", url, next, { seconds: options.bareSeconds });
  } finally {
    await stop(child);
  }
}

/** A merchant with Stripe keys, the signing secret and every rule on; its webhook's path. */
async function setUpMerchant(base: string, dataDir: string): Promise<string> {
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
  await turnAllRulesOn(base, token);
  return new URL(saved.stripe_webhook_url).pathname;
}

/**
 * options.events prebuilt events, with the server's resident memory every 10 s meanwhile, its
 * ingest batch totals (/metrics) read just before, and the CPU seconds it used for them.
 */
async function measuredLoad(
  warden: WardenProcess,
  url: string,
  stream: ReturnType<typeof webhookStream>,
) {
  const { label, child } = warden;
  console.error(`${label}: building ${options.events} events before the clock starts`);
  const prebuilt = stream.prebuilt(options.events);
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
  const batchesBefore = await batchSizes(warden.base);
  const cpuBefore = cpuSeconds(child.pid);
  const measured = await load(`${label}: ${options.events} events`, url, next, {
    count: options.events,
  });
  const cpuAfter = cpuSeconds(child.pid);
  clearInterval(sampler);
  const rssAfter = rssMb(child.pid);
  console.error(
    `${label}: server RSS ${rssBefore?.toFixed(0)} MB before, ${rssAfter?.toFixed(0)} MB after ${options.events} events`,
  );
  const rss = {
    beforeMb: rssBefore,
    afterMb: rssAfter,
    events: options.events,
    samples: rssSamples,
  };
  const serverCpuSeconds =
    cpuBefore === null || cpuAfter === null ? null : Number((cpuAfter - cpuBefore).toFixed(2));
  return { measured, rss, batchesBefore, serverCpuSeconds };
}

async function measure(warden: WardenProcess) {
  const { kind, label, base } = warden;
  const path = await setUpMerchant(base, warden.dataDir);
  const url = `${base}${path}`;
  const stream = webhookStream(SIGNING_SECRET, kind.slice(0, 2));
  const warmup = await load(`${label}: warm-up`, url, stream.next, { count: options.warmup });
  const { measured, rss, batchesBefore, serverCpuSeconds } = await measuredLoad(
    warden,
    url,
    stream,
  );
  const batches = perStatement(batchesBefore, await batchSizes(base));
  console.error(
    `${label}: events per statement during the run: read ${batches.read.toFixed(1)}, write ${batches.write.toFixed(1)}`,
  );
  await stop(warden.child);
  // Read what was stored, straight from the database the server used.
  const stored = await readStored(warden.databaseUrl, warden.dataDir, path, stream.newest);
  const problems = storedProblems([warmup, measured], stored, stream.newest.size);
  console.error(
    `${label}: stored ${stored.events} events and ${stored.rows} charges; ` +
      (problems.length ? `PROBLEMS: ${problems.join(" | ")}` : "all stored and applied"),
  );
  return {
    database: kind,
    warmup,
    measured,
    rss,
    serverCpuSeconds,
    batches,
    types: stream.types,
    charges: stream.newest.size,
    stored,
    problems,
  };
}

export type WardenRun = Awaited<ReturnType<typeof measure>>;

/**
 * Warden on one database, its Stripe calls going to the stand-in at stripeUrl, run from the
 * checkout at `root` (default: this one) with `nodeArgs` added to its Node flags.
 */
export async function benchWarden(
  kind: DatabaseKind,
  workDir: string,
  stripeUrl: string,
  root?: string,
  nodeArgs?: readonly string[],
): Promise<WardenRun> {
  const warden = await launchWarden(kind, workDir, {
    adminUrl: options.pgAdminUrl,
    databasePrefix: "warden_bench_webhooks",
    env: { STRIPE_API_BASE: stripeUrl, METRICS_TOKEN },
    root,
    nodeArgs,
  });
  try {
    await warden.ready();
    return await measure(warden);
  } catch (error) {
    (error as Error).message +=
      `\n--- the ${warden.label} server's log, last lines:\n${tail(warden.logFile, 25)}`;
    throw error;
  } finally {
    await warden.close();
  }
}
