/**
 * Where a benchmark's figures came from (the machine, its load, the commit) and what one
 * process used (Linux /proc: CPU seconds, resident memory, its children). Every benchmark
 * prints the machine beside its table, so a figure is never read without it.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");

export type Machine = {
  cpus: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  loadavgAtStart: number[];
};

/** The 1, 5 and 15 minute load averages, to two decimals. */
export const loadAverage = () => loadavg().map((n) => Number(n.toFixed(2)));

export function machine(): Machine {
  return {
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    loadavgAtStart: loadAverage(),
  };
}

/** "2 CPUs (model), 8 GiB, Node v24…, load average 0.1 0.2 0.3": the line beside a table. */
export function machineLine(m: Machine = machine()): string {
  return `${m.cpus} CPUs (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}, load average ${m.loadavgAtStart.join(" ")}`;
}

/** The commit measured, "+dirty" when tracked files differ from it. */
export function gitCommit(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim();
    const head = git("rev-parse", "--short", "HEAD");
    return git("status", "--porcelain", "--untracked-files=no") ? `${head}+dirty` : head;
  } catch {
    return "unknown";
  }
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/**
 * CPU seconds (user + system, clock ticks of 100 Hz) a process has used so far; with
 * `endedChildren`, its children that have ended and been reaped too. Null when unreadable.
 */
export function cpuSeconds(pid: number | undefined, endedChildren = false): number | null {
  if (!pid) return null;
  try {
    const fields = statFields(pid).slice(11, endedChildren ? 15 : 13);
    return fields.reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
  } catch {
    return null;
  }
}

/** Current and peak resident memory of a process, in MB; null when unreadable. */
export function memoryMb(pid: number | undefined): { rssMb: number; peakMb: number } | null {
  if (!pid) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const mb = (field: string) =>
      Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]) / 1024;
    return { rssMb: mb("VmRSS"), peakMb: mb("VmHWM") };
  } catch {
    return null;
  }
}

/** The pids of a process's live children. */
export function childrenOf(pid: number | undefined): number[] {
  if (!pid) return [];
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return text ? text.split(" ").map(Number) : [];
  } catch {
    return [];
  }
}

/** Runs `run` and says how busy `pid` was meanwhile, in percent of one core (NaN if unknown). */
export async function withCpu<T>(
  pid: number | undefined,
  run: () => Promise<T>,
): Promise<[T, number]> {
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  const result = await run();
  const cpu1 = cpuSeconds(pid);
  const percent =
    cpu0 === null || cpu1 === null
      ? Number.NaN
      : ((cpu1 - cpu0) / ((performance.now() - t0) / 1000)) * 100;
  return [result, Math.round(percent)];
}
