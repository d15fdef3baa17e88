/**
 * A proposal's fit in a worker thread of its own (model-fit.thread.ts starts it): the fit and
 * its cross-validation take seconds of CPU on 100,000 labels, which would otherwise hold the
 * server's thread and every screening waiting on it. Reads one job, answers once, ends.
 */
import { parentPort } from "node:worker_threads";
import { type FitOptions, propose } from "./model-backtest.ts";
import { type Packed, unpack } from "./training-set.ts";

export type FitJob = { packed: Packed; options: FitOptions };
export type FitAnswer =
  | { ok: true; proposal: ReturnType<typeof propose> }
  | { ok: false; message: string };

parentPort?.once("message", (job: FitJob) => {
  let answer: FitAnswer;
  try {
    answer = { ok: true, proposal: propose(unpack(job.packed), job.options) };
  } catch (error) {
    answer = { ok: false, message: (error as Error)?.message ?? String(error) };
  }
  parentPort?.postMessage(answer);
});
