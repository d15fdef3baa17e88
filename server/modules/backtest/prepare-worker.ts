/**
 * Starts the backtest's worker thread (backtest-worker.ts) and feeds it batches in order.
 * Built by scripts/build-server.mjs, the server starts the compiled
 * dist/server/modules/backtest/backtest-worker.js; run from source (tsx, vitest), the
 * TypeScript file through tsx's loader inside the worker (a worker does not take the
 * parent's `--import tsx`). Like migrate-child.ts.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { Features, Policy } from "../../engine/types.ts";
import type { Prepared, RawScreening } from "./backtest-prepare.ts";

declare const __WARDEN_BUILT__: boolean | undefined;

const ROOT = resolve(import.meta.dirname, "../../..");

function startWorker(workerData: { policy: Policy; base: Features }): Worker {
  if (typeof __WARDEN_BUILT__ !== "undefined" && __WARDEN_BUILT__) {
    return new Worker(resolve(ROOT, "dist/server/modules/backtest/backtest-worker.js"), {
      workerData,
    });
  }
  const file = pathToFileURL(resolve(ROOT, "server/modules/backtest/backtest-worker.ts")).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(file)}, ${JSON.stringify(file)}))`,
    // Not the parent's `--import tsx` (or a test runner's flags): the loader is registered
    // inside, for this file only. Profiling flags pass.
    {
      eval: true,
      execArgv: process.execArgv.filter((arg) => arg.startsWith("--cpu-prof")),
      workerData,
    },
  );
}

type Reply = { id: number; prepared?: string; error?: string };

export function createPrepareWorker(policy: Policy, base: Features) {
  const worker = startWorker({ policy, base });
  const waiting = new Map<number, { done(prepared: Prepared[]): void; fail(e: Error): void }>();
  let failure: Error | null = null;
  let ids = 0;
  const failAll = (error: Error) => {
    failure ??= error;
    for (const w of waiting.values()) w.fail(failure);
    waiting.clear();
  };
  worker.on("message", ({ id, prepared, error }: Reply) => {
    const w = waiting.get(id);
    if (!w) return;
    waiting.delete(id);
    if (prepared !== undefined) w.done(JSON.parse(prepared) as Prepared[]);
    else w.fail(new Error(`backtest worker: ${error}`));
  });
  worker.on("error", failAll);
  worker.on("exit", (code) => failAll(new Error(`backtest worker exited (code ${code})`)));

  function prepare(rows: RawScreening[]): Promise<Prepared[]> {
    if (failure) return Promise.reject(failure);
    const id = ids++;
    const answer = new Promise<Prepared[]>((done, fail) => waiting.set(id, { done, fail }));
    worker.postMessage({ id, rows });
    return answer;
  }

  return {
    prepare,

    /**
     * Yields each batch with its prepared events, in order, keeping `depth` batches at the
     * worker: the worker prepares batch n+1 while the caller judges batch n.
     */
    async *pipeline<T>(
      batches: AsyncIterable<T[]>,
      raw: (row: T) => RawScreening,
      depth = 2,
    ): AsyncGenerator<{ rows: T[]; prepared: Prepared[] }> {
      const it = batches[Symbol.asyncIterator]();
      const queue: { rows: T[]; prepared: Promise<Prepared[]> }[] = [];
      let ended = false;
      let reading: Promise<void> | null = null;
      // Each batch goes to the worker as soon as it is read, not when the caller next asks.
      const read = () => {
        reading = it.next().then((next) => {
          reading = null;
          if (next.done) {
            ended = true;
            return;
          }
          const prepared = prepare(next.value.map(raw));
          // A failure is reported when its batch is awaited, not as unhandled meanwhile.
          prepared.catch(() => {});
          queue.push({ rows: next.value, prepared });
        });
      };
      try {
        for (;;) {
          if (!ended && !reading && queue.length < depth) read();
          const head = queue.shift();
          if (head) {
            yield { rows: head.rows, prepared: await head.prepared };
            continue;
          }
          if (reading) await reading;
          else if (ended) return;
        }
      } finally {
        await (reading as Promise<void> | null)?.catch(() => {});
        await it.return?.();
      }
    },

    /** Lets the worker end by itself, or ends it after a second. */
    async close() {
      worker.removeAllListeners("exit");
      const exited = new Promise((done) => worker.once("exit", done));
      worker.postMessage("stop");
      const timer = setTimeout(() => worker.terminate(), 1_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export type PrepareWorker = ReturnType<typeof createPrepareWorker>;
