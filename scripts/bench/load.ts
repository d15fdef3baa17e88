/**
 * One autocannon load with what every benchmark reads from it: the latency of each good answer
 * as measured per response (sub-millisecond; autocannon's own histogram has whole
 * milliseconds), the time to the last answer (autocannon notices it is done only on its next
 * one-second tick), and a progress line on stderr.
 */
import autocannon, { type Options, type Result } from "autocannon";
import { progressBar } from "../lib/progress.ts";

export type LoadRun = {
  result: Result;
  /** Latencies of good answers, in ms, sorted. */
  latencies: number[];
  /** From the start to the last answer. */
  seconds: number;
};

export type Progress = (state: { elapsed: number; answered: number }) => {
  percent: number;
  detail: string;
};

/** The q-quantile (0..1) of sorted values (0 for none). */
export function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

export async function runLoad(
  label: string,
  options: Options,
  progress: Progress,
  /** What counts as a good answer (default: any 2xx). */
  good: (status: number) => boolean = (status) => status >= 200 && status < 300,
): Promise<LoadRun & { done: (message: string) => void }> {
  const bar = progressBar(label);
  const latencies: number[] = [];
  const instance = autocannon(options);
  let last = 0;
  instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
    last = performance.now();
    if (good(status)) latencies.push(ms);
  });
  const started = performance.now();
  const ticker = setInterval(() => {
    const { percent, detail } = progress({
      elapsed: (performance.now() - started) / 1000,
      answered: latencies.length,
    });
    bar.update(percent, detail);
  }, 1000);
  const result = await instance;
  clearInterval(ticker);
  latencies.sort((a, b) => a - b);
  const seconds = ((last || performance.now()) - started) / 1000;
  return { result, latencies, seconds, done: (message) => bar.done(`${label}: ${message}`) };
}
