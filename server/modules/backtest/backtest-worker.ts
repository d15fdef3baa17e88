/**
 * The backtest's worker thread: prepares batches of stored screenings (backtest-prepare.ts)
 * for the main thread, which judges them in time order. Started by prepare-pool.ts with the
 * policy and base features in workerData; answers each { id, rows } with { id, prepared } (a JSON
 * text) or { id, error }. Built as its own entry (scripts/build-server.mjs).
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Features, Policy } from "../../engine/types.ts";
import { prepareScreening, type RawScreening } from "./backtest-prepare.ts";

const { policy, base } = workerData as { policy: Policy; base: Features };
const port = parentPort;
if (!port) throw new Error("backtest-worker.ts runs as a worker thread");

port.on("message", (message: { id: number; rows: RawScreening[] } | "stop") => {
  // Closing the port lets the thread end by itself (and write a --cpu-prof profile).
  if (message === "stop") return port.close();
  const { id, rows } = message;
  try {
    // One JSON text for the batch: see Prepared (backtest-prepare.ts).
    const prepared = JSON.stringify(rows.map((row) => prepareScreening(row, policy, base)));
    port.postMessage({ id, prepared });
  } catch (error) {
    port.postMessage({
      id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
});
