/**
 * A job that drains a durable queue (the email outbox, the Stripe actions): polled while
 * started, run at once when kicked, one run at a time; a kick during a run schedules one
 * more right after it, so nothing queued meanwhile waits for the next poll.
 */
export function createBackgroundWorker<T>(
  run: () => Promise<T>,
  options: { pollMs: number; onError(error: unknown): T },
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<T> | undefined;
  let again = false;

  function runSoon(): Promise<T> {
    if (running) {
      again = true;
      return running;
    }
    running = run()
      .catch(options.onError)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          void runSoon();
        }
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
