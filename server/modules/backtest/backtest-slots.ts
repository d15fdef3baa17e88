/**
 * Backtest jobs' turns on one instance, wherever they run (a child process on PostgreSQL, the
 * server's own thread on the embedded database): at most `maxRunning` at once and one per
 * account. A second job of an account that holds a slot (a cancelled one still finishing)
 * waits even when a slot is free, so one account can never hold them all; the others wait
 * in order, and a job cancelled while it waits leaves the line.
 */
export type JobSlots = ReturnType<typeof createJobSlots>;

export function createJobSlots(maxRunning: number) {
  const holders = new Map<string, number>();
  const waiting: { accountId: string; go: () => void }[] = [];
  let running = 0;

  const mayStart = (accountId: string) => running < maxRunning && !holders.has(accountId);

  function hold(accountId: string): () => void {
    running += 1;
    holders.set(accountId, (holders.get(accountId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running -= 1;
      const held = (holders.get(accountId) ?? 1) - 1;
      if (held > 0) holders.set(accountId, held);
      else holders.delete(accountId);
      const next = waiting.findIndex((entry) => mayStart(entry.accountId));
      if (next >= 0) waiting.splice(next, 1)[0]?.go();
    };
  }

  return {
    /** Resolves, once the job may run, with the function that frees its slot. */
    take(accountId: string, signal: AbortSignal): Promise<() => void> {
      return new Promise((ready, fail) => {
        if (signal.aborted) return fail(signal.reason);
        if (mayStart(accountId)) return ready(hold(accountId));
        const entry = {
          accountId,
          go: () => {
            signal.removeEventListener("abort", leave);
            ready(hold(accountId));
          },
        };
        const leave = () => {
          const at = waiting.indexOf(entry);
          if (at >= 0) waiting.splice(at, 1);
          fail(signal.reason);
        };
        waiting.push(entry);
        signal.addEventListener("abort", leave, { once: true });
      });
    },

    /** Jobs running now (for tests and the metrics). */
    running: () => running,
  };
}
