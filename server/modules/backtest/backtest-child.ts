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
  /** Jobs running at once on this instance (each can take a few hundred MB and a core). */
  maxProcesses?: number;
  /** The child's V8 old-space ceiling, in MB: past it the job fails, the server does not. */
  heapMb?: number;
};

/**
 * A JobRunner that runs each job in a process of its own on the database at `url`, at most
 * `maxProcesses` at once and one per account: a second job of an account that holds a slot
 * waits even when a slot is free, so one account can never hold them all; the others wait in
 * order, shown as running with nothing processed yet, and can be cancelled while they wait.
 */
export function backtestInChildProcess(
  url: string,
  { maxProcesses = 2, heapMb = DEFAULT_HEAP_MB }: ChildOptions = {},
): JobRunner {
  const holders = new Map<string, number>();
  const waiting: { accountId: string; go: () => void }[] = [];
  let running = 0;
  const mayStart = (accountId: string) => running < maxProcesses && !holders.has(accountId);
  const take = (accountId: string) => {
    running += 1;
    holders.set(accountId, (holders.get(accountId) ?? 0) + 1);
  };
  const release = (accountId: string) => {
    running -= 1;
    const held = (holders.get(accountId) ?? 1) - 1;
    if (held > 0) holders.set(accountId, held);
    else holders.delete(accountId);
    const next = waiting.findIndex((entry) => mayStart(entry.accountId));
    if (next >= 0) waiting.splice(next, 1)[0]?.go();
  };
  const slot = (accountId: string, signal: AbortSignal) =>
    new Promise<void>((ready, fail) => {
      if (signal.aborted) return fail(signal.reason);
      if (mayStart(accountId)) {
        take(accountId);
        return ready();
      }
      const entry = {
        accountId,
        go: () => {
          signal.removeEventListener("abort", drop);
          take(accountId);
          ready();
        },
      };
      const drop = () => {
        const at = waiting.indexOf(entry);
        if (at >= 0) waiting.splice(at, 1);
        fail(signal.reason);
      };
      waiting.push(entry);
      signal.addEventListener("abort", drop, { once: true });
    });
  return async (job) => {
    await slot(job.accountId, job.signal);
    try {
      return await runInChild(url, heapMb, job);
    } finally {
      release(job.accountId);
    }
  };
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
  { accountId, digestKey, settings, now, onProgress, signal }: Parameters<JobRunner>[0],
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
    const job: JobMessage = { accountId, digestKey, settings, now: now.getTime() };
    child.send(job);
  });
}
