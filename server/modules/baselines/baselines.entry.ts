/**
 * What other modules read of the baseline (issue 45): the series a screening adds to, the
 * buckets, and the spike test; the rollups' type for whoever flushes them. Pure functions and
 * types only.
 */
export type { Rollups } from "./rollups.ts";
export { bucketOf, SPANS } from "./series.ts";
export {
  baselineHours,
  keyedUsualPerHour,
  keyedWeeks,
  P_SPIKE,
  spikeOf,
  usualPerHour,
} from "./spike.ts";
