/**
 * Runs `run` `runs` times in a row and returns the median and 95th percentile of their times in
 * ms (the floor(q·n)-th of the sorted times), as the review and search benchmarks report them.
 */
export async function timedRuns(
  runs: number,
  run: () => Promise<unknown>,
): Promise<{ median: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  const sorted = times.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { median: at(0.5), p95: at(0.95) };
}
