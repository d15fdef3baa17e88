/**
 * The backtest's worker thread: prepares batches of stored screenings (backtest-prepare.ts)
 * for the main thread, which judges them in time order. Started by prepare-pool.ts with the
 * policy and base features in workerData; answers each { id, rows } with { id, prepared } or
 * { id, error }. Built as its own entry (scripts/build-server.mjs).
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Features, Policy } from "../../engine/types.ts";
import { prepareScreening, type RawScreening } from "./backtest-prepare.ts";

const { policy, base } = workerData as { policy: Policy; base: Features };
const port = parentPort;
if (!port) throw new Error("backtest-worker.ts runs as a worker thread");

port.on("message", ({ id, rows }: { id: number; rows: RawScreening[] }) => {
  try {
    port.postMessage({ id, prepared: rows.map((row) => prepareScreening(row, policy, base)) });
  } catch (error) {
    port.postMessage({
      id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
});
