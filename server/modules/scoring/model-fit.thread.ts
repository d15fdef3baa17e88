/**
 * Runs a proposal's fit (model-backtest.ts propose) in a worker thread (model-fit.worker.ts),
 * so the fit never runs on the thread that screens. The packed rows' buffers are moved to the
 * thread, not copied. Started through entryCommand: the compiled file when built, tsx from
 * source. A fit that outlives FIT_TIMEOUT_MS is stopped.
 */
import { Worker } from "node:worker_threads";
import { entryCommand } from "../../lib/entry-command.ts";
import type { Proposal } from "./model-backtest.ts";
import type { FitAnswer, FitJob } from "./model-fit.worker.ts";

const FIT_TIMEOUT_MS = 120_000;
/** The thread's own heap ceiling: past it the fit fails, the server does not. */
const FIT_HEAP_MB = 512;

export function fitInThread(job: FitJob): Promise<Proposal> {
  const command = entryCommand("server/modules/scoring/model-fit.worker.ts");
  const file = command.at(-1) ?? "";
  const worker = new Worker(file, {
    execArgv: command.slice(0, -1),
    resourceLimits: { maxOldGenerationSizeMb: FIT_HEAP_MB },
  });
  let timer: NodeJS.Timeout | undefined;
  return new Promise<Proposal>((resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`the fit took over ${FIT_TIMEOUT_MS / 1000} s`));
    }, FIT_TIMEOUT_MS);
    worker.once("message", (answer: FitAnswer) => {
      if (answer.ok) resolve(answer.proposal);
      else reject(new Error(`the fit failed: ${answer.message}`));
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the fit's thread ended (code ${code})`)));
    const { packed } = job;
    worker.postMessage(job, [
      packed.meta.buffer,
      packed.counts.buffer,
      packed.start.buffer,
      packed.signals.buffer,
      packed.values.buffer,
    ] as ArrayBuffer[]);
  }).finally(() => {
    clearTimeout(timer);
    void worker.terminate();
  });
}
