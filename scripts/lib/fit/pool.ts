/**
 * Plays several plays (a world, a seed, a configuration) at once, each in its own child
 * process (seed-worker.ts), at most `jobs` at a time; the rows come back in the order the plays
 * were given, whatever order they finish in, so the result does not depend on `jobs`.
 */
import { type ChildProcess, fork } from "node:child_process";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { cleanups, ROOT } from "../bench-process.ts";
import type { Play, Row } from "./collect.ts";
import type { WorkerMessage } from "./seed-worker.ts";

const WORKER = resolve(import.meta.dirname, "seed-worker.ts");

/** One child per core, two at most by default: each also runs its own Warden. */
export const defaultJobs = () => Math.max(1, Math.min(2, availableParallelism()));

const running = new Set<ChildProcess>();
cleanups.push(async () => {
  for (const child of running) child.kill("SIGKILL");
});

function playInChild(play: Play, progress: (done: number, total: number) => void): Promise<Row[]> {
  return new Promise((done, fail) => {
    const child = fork(WORKER, [], {
      cwd: ROOT,
      execArgv: ["--import", "tsx"],
      serialization: "advanced",
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    running.add(child);
    let rows: Row[] | null = null;
    let error: string | null = null;
    child.on("message", (message: WorkerMessage) => {
      if (message.kind === "progress") progress(message.done, message.total);
      else if (message.kind === "rows") rows = message.rows;
      else error = message.message;
    });
    child.once("error", (e) => fail(e));
    child.once("exit", (code, signal) => {
      running.delete(child);
      const which = `${play.world} seed ${play.seed}${play.configuration ? ` (${play.configuration.name})` : ""}`;
      if (rows) done(rows);
      else
        fail(
          new Error(`${which}: ${error ?? `the child exited (${signal ?? code}) without rows`}`),
        );
    });
    child.send(play);
  });
}

/** Every play's rows, in the order of `plays`; `progress` gets events played over all of them. */
export async function playAll(
  plays: readonly Play[],
  jobs = defaultJobs(),
  progress: (done: number, total: number) => void = () => {},
): Promise<Row[][]> {
  const done = plays.map(() => 0);
  const totals = plays.map((p) => Math.min(p.events, p.limit ?? p.events));
  const report = () =>
    progress(
      done.reduce((a, b) => a + b, 0),
      totals.reduce((a, b) => a + b, 0),
    );
  const results: Row[][] = plays.map(() => []);
  let next = 0;
  const lane = async () => {
    while (next < plays.length) {
      const i = next++;
      const play = plays[i] as Play;
      results[i] = await playInChild(play, (d, t) => {
        done[i] = d;
        totals[i] = t;
        report();
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, lane));
  return results;
}
