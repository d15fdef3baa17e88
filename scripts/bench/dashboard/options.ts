/** bench:dashboard's flags and environment (see scripts/bench-dashboard.ts). */
import { flags } from "../../lib/progress.ts";

export const args = flags();
export const DBS = args.db ? [args.db] : ["embedded", "postgres"];

export const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
export const OTHER_ROWS = Math.max(1, Math.round(ROWS / 20));
export const RUNS = Number(process.env.BENCH_RUNS ?? 50);
export const CHUNK = 100_000;
export const NOW = Math.floor(Date.now() / 1000);
/** The rows span a year, so the 30-day summary covers about a twelfth of them. */
export const SPAN_SECONDS = 365 * 86_400;
