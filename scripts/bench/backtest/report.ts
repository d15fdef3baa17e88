/** bench:backtest's lines and table for one database, and its result for `npm run bench`. */
import { machine } from "../machine.ts";
import type { BacktestRun } from "./run.ts";

type Case = { kind: "postgres" | "embedded"; label: string; events: number; counts: object };

/** The line and the console table of one run. */
export function printRun({ label, events }: Case, run: BacktestRun, bareReqPerSec: number) {
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
}

/** The result in the bench output contract. */
export function resultOf(
  { kind, label, events, counts }: Case,
  run: BacktestRun,
  bareReqPerSec: number,
) {
  const result = run.job?.result;
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
}
