/**
 * Runs a backtest job in a child process (backtest-process.ts) when the database is
 * PostgreSQL, so a merchant's "Test on history" neither holds the server's thread (a million
 * events is ~40 s of CPU, which would otherwise stall live screenings and webhooks between
 * batches) nor its memory, and the job gets V8 settings of its own: 64 MB semi-spaces
 * instead of the server's 4. On the million-event bench the run went from 48.6 s in-process
 * to 38.6 s (decision 008). Embedded, PGlite lives in the server's process and no other
 * process may open it, so the job runs in-process there, without this heap ceiling or this
 * environment of its own: V8's heap limit is per process, so a cap there would be the
 * server's (decision 013).
 *
 * Started through entryCommand (compiled when built, tsx from source). Cancelling kills the
 * child.
 */
import { spawn } from "node:child_process";
import { entryCommand, ROOT } from "../../lib/entry-command.ts";
import type { JobRunner } from "./backtest.service.ts";
import type { JobMessage } from "./backtest-process.ts";

/** The job's own heap settings (measured: decision 008), and its heap's ceiling. */
const NODE_FLAGS = ["--max-semi-space-size=64"];
const DEFAULT_HEAP_MB = 1024;
/** How much of the child's stderr a failure keeps for the log. */
const STDERR_TAIL = 4_000;
/**
 * What the child may see of the server's environment: nothing of its secrets (ENCRYPTION_KEY,
 * DATABASE_URL with its password, SMTP and metrics credentials). The database URL comes in
 * WARDEN_BACKTEST_URL alone.
 */
const INHERITED_ENV = ["PATH", "TZ", "NODE_ENV", "LANG"];

type ChildMessage =
  | { type: "progress"; processed: number; total: number }
  | { type: "done"; result: Awaited<ReturnType<JobRunner>> }
  | { type: "failed"; message: string };

export type ChildOptions = {
  /** The child's V8 old-space ceiling, in MB: past it the job fails, the server does not. */
  heapMb?: number;
};

/**
 * A JobRunner that runs each job in a process of its own on the database at `url`. How many
 * run at once, and one per account, is the backtest service's (backtest-slots.ts).
 */
export function backtestInChildProcess(
  url: string,
  { heapMb = DEFAULT_HEAP_MB }: ChildOptions = {},
): JobRunner {
  return (job) => runInChild(url, heapMb, job);
}

function childEnv(url: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { WARDEN_BACKTEST_URL: url };
  for (const name of INHERITED_ENV) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  return env;
}

function runInChild(
  url: string,
  heapMb: number,
  { accountId, digestKey, settings, now, truths, onProgress, signal }: Parameters<JobRunner>[0],
): ReturnType<JobRunner> {
  return new Promise((done, fail) => {
    if (signal.aborted) return fail(signal.reason);
    const child = spawn(
      process.execPath,
      [
        ...NODE_FLAGS,
        `--max-old-space-size=${heapMb}`,
        ...entryCommand("server/modules/backtest/backtest-process.ts"),
      ],
      {
        cwd: ROOT,
        env: childEnv(url),
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
    const job: JobMessage = { accountId, digestKey, settings, now: now.getTime(), truths };
    child.send(job);
  });
}
