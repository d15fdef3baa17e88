/**
 * One backtest over HTTP: started with every rule on and polled until done; the wall time,
 * the server's CPU and memory (and its job process's), and how long status polls took.
 */
import { loadavg } from "node:os";
import type { BacktestJob } from "../../../shared/schemas/backtest.ts";
import { sleep } from "../../lib/bench-process.ts";
import { childrenOf, cpuSeconds, memoryMb } from "../machine.ts";
import { SETTINGS } from "./options.ts";

/** Peak and current resident memory of a process, in whole MB. */
function memoryOf(pid: number | undefined) {
  const memory = memoryMb(pid);
  return memory && { peakMb: Math.round(memory.peakMb), rssMb: Math.round(memory.rssMb) };
}

/** The highest peak resident memory among a process's children (the job's own process). */
function childrenPeakMb(pid: number | undefined, peak: number): number {
  for (const child of childrenOf(pid)) {
    try {
      peak = Math.max(peak, memoryOf(child)?.peakMb ?? 0);
    } catch {
      // It ended between the listing and the read.
    }
  }
  return peak;
}

/** The p99 and max of poll times, to 0.1 ms. */
function pollFigures(pollMs: number[]) {
  pollMs.sort((a, b) => a - b);
  return {
    p99: Number((pollMs[Math.floor(pollMs.length * 0.99)] ?? 0).toFixed(1)),
    max: Number((pollMs.at(-1) ?? 0).toFixed(1)),
  };
}

export type BacktestRun = Awaited<ReturnType<typeof runBacktest>>;

export async function runBacktest(base: string, token: string, pid: number | undefined) {
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
    jobPeakMb = childrenPeakMb(pid, jobPeakMb);
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
    const poll = pollFigures(pollMs);
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
