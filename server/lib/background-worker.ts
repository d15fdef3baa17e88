/**
 * A job that drains a durable queue (the email outbox, the Stripe actions): polled while
 * started, run at once when kicked, one run at a time; a kick during a run schedules one
 * more right after it, so nothing queued meanwhile waits for the next poll. A run belongs to
 * whoever asked for it (a request's kick: its log lines carry the request's id; the poll's
 * timer: none), the one after a run included, instead of to the run before it.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export function createBackgroundWorker<T>(
  run: () => Promise<T>,
  options: { pollMs: number; onError(error: unknown): T },
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<T> | undefined;
  /** The context of the first call that asked for one more run meanwhile. */
  let again: ((next: () => void) => void) | undefined;

  function runSoon(): Promise<T> {
    if (running) {
      again ??= AsyncLocalStorage.snapshot();
      return running;
    }
    running = run()
      .catch(options.onError)
      .finally(() => {
        running = undefined;
        const rerun = again;
        again = undefined;
        rerun?.(() => void runSoon());
      });
    return running;
  }

  return {
    /** Runs now (or right after the current run); resolves when that run ends. */
    runSoon,
    /** Runs now if the worker is started (a stopped worker leaves the work to its owner). */
    kick(): void {
      if (timer) void runSoon();
    },
    start(): void {
      timer ??= setInterval(() => void runSoon(), options.pollMs);
      timer.unref();
      void runSoon();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
