/** One timed start: spawn → first 200 from /healthz, then the server's memory and CPU. */
import { type ChildProcess, spawn } from "node:child_process";
import { freePort, ROOT } from "../../lib/bench-process.ts";
import { cpuSeconds, memoryMb } from "../machine.ts";
import { commandOf, serverPid } from "./process-tree.ts";

export const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/**
 * When the server's memory is read after its first answer: 5 s, past the second or two after
 * start in which V8 optimizes PGlite's WebAssembly (a spike the peak row shows).
 */
export const RSS_DELAY_MS = 5000;
const TIMEOUT_MS = 60_000;

export const NPM_START = ["npm", "start", "--silent"];

export type Sample = {
  startMs: number;
  rssMb: number;
  /** The most the server held from its spawn to the reading (VmHWM). */
  peakMb: number;
  cpuS: number;
  pid: number;
  command: string;
};

async function waitForHealth(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
    if (response?.status === 200) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("no 200 from /healthz in 60 s");
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  // npm forwards SIGTERM to the script it runs.
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Spawns `command`, times the first 200 from /healthz, reads the server's memory 5 s later. */
export async function measure(command: string[], env: Record<string, string>): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0] ?? "npm", command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  try {
    await waitForHealth(port, child);
    const startMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, RSS_DELAY_MS));
    const pid = serverPid(child.pid ?? -1);
    const memory = memoryMb(pid);
    return {
      startMs,
      rssMb: memory?.rssMb ?? Number.NaN,
      peakMb: memory?.peakMb ?? Number.NaN,
      cpuS: cpuSeconds(pid) ?? Number.NaN,
      pid,
      command: commandOf(pid),
    };
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${stderr}`);
  } finally {
    await stop(child);
  }
}
