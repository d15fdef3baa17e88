/**
 * Runs a backtest job in a child process (backtest-process.ts) when the database is
 * PostgreSQL, so a merchant's "Test on history" neither holds the server's thread (a million
 * events is ~40 s of CPU, which would otherwise stall live screenings and webhooks between
 * batches) nor its memory, and the job gets V8 settings of its own: 64 MB semi-spaces
 * instead of the server's 4. On the million-event bench the run went from 48.6 s in-process
 * to 38.6 s (decision 008). Embedded, PGlite lives in the server's process and no other
 * process may open it, so the job runs in-process there.
 *
 * Started through entryCommand (compiled when built, tsx from source). Cancelling kills the
 * child.
 */
import { spawn } from "node:child_process";
import { entryCommand, ROOT } from "../../lib/entry-command.ts";
import type { JobRunner } from "./backtest.service.ts";
import type { JobMessage } from "./backtest-process.ts";

/** The job's own heap settings (measured: decision 008). */
const NODE_FLAGS = ["--max-semi-space-size=64"];
/** How much of the child's stderr a failure keeps for the log. */
const STDERR_TAIL = 4_000;

type ChildMessage =
  | { type: "progress"; processed: number; total: number }
  | { type: "done"; result: Awaited<ReturnType<JobRunner>> }
  | { type: "failed"; message: string };

/**
 * A JobRunner that runs each job in a process of its own on the database at `url`, at most
 * `maxProcesses` at once (each can take a few hundred MB and a core); the others wait, shown
 * as running with nothing processed yet, and can be cancelled while they wait.
 */
export function backtestInChildProcess(url: string, maxProcesses = 2): JobRunner {
  let running = 0;
  const waiting: (() => void)[] = [];
  const slot = (signal: AbortSignal) =>
    new Promise<void>((ready, fail) => {
      if (signal.aborted) return fail(signal.reason);
      if (running < maxProcesses) {
        running += 1;
        return ready();
      }
      const go = () => {
        signal.removeEventListener("abort", drop);
        running += 1;
        ready();
      };
      const drop = () => {
        const at = waiting.indexOf(go);
        if (at >= 0) waiting.splice(at, 1);
        fail(signal.reason);
      };
      waiting.push(go);
      signal.addEventListener("abort", drop, { once: true });
    });
  return async (job) => {
    await slot(job.signal);
    try {
      return await runInChild(url, job);
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}

function runInChild(
  url: string,
  { accountId, settings, now, onProgress, signal }: Parameters<JobRunner>[0],
): ReturnType<JobRunner> {
  return new Promise((done, fail) => {
    if (signal.aborted) return fail(signal.reason);
    const child = spawn(
      process.execPath,
      [...NODE_FLAGS, ...entryCommand("server/modules/backtest/backtest-process.ts")],
      {
        cwd: ROOT,
        env: { ...process.env, WARDEN_BACKTEST_URL: url },
        stdio: ["ignore", "ignore", "pipe", "ipc"],
      },
    );
    let stderr = "";
    let answer: ChildMessage | undefined;
    child.stderr?.on("data", (chunk) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    const cancel = () => child.kill("SIGKILL");
    signal.addEventListener("abort", cancel, { once: true });
    child.on("message", (message: ChildMessage) => {
      if (message.type === "progress") onProgress(message.processed, message.total);
      else answer = message;
    });
    child.on("error", (error) => {
      signal.removeEventListener("abort", cancel);
      fail(error);
    });
    child.on("exit", (code, killedBy) => {
      signal.removeEventListener("abort", cancel);
      if (answer?.type === "done") return done(answer.result);
      if (signal.aborted) return fail(signal.reason);
      const why =
        answer?.type === "failed"
          ? answer.message
          : stderr.trim() || `exit ${killedBy ? `by ${killedBy}` : `code ${code}`}`;
      fail(new Error(`backtest process failed: ${why}`));
    });
    const job: JobMessage = { accountId, settings, now: now.getTime() };
    child.send(job);
  });
}
