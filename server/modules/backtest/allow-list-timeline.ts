/**
 * The allow list as it stood at each moment of a backtest's replay: an entry is in force from
 * its createdAt (a renewal restarts it) until its expiresAt. Removed entries are deleted rows,
 * so the replay cannot see them: it uses the entries that exist now (docs/allow-lists.md).
 * Asked in time order, it hands back the same array until an entry starts or ends, so the
 * replay builds one policy per change, not per event. Pure.
 */
import type { AllowListEntry } from "../../engine/types.ts";

export type AllowListTimeline = { at(ms: number): readonly AllowListEntry[] };

const inForce = (entry: AllowListEntry, ms: number) =>
  Date.parse(entry.addedAt) <= ms && (entry.expiresAt === null || Date.parse(entry.expiresAt) > ms);

export function allowListTimeline(entries: readonly AllowListEntry[]): AllowListTimeline {
  // Every moment the set changes, ascending: [from, to) between two holds one set.
  const changes = [
    ...new Set(
      entries.flatMap((entry) => [
        Date.parse(entry.addedAt),
        ...(entry.expiresAt === null ? [] : [Date.parse(entry.expiresAt)]),
      ]),
    ),
  ].sort((a, b) => a - b);
  let current: readonly AllowListEntry[] = [];
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  return {
    at(ms) {
      if (ms >= from && ms < to) return current;
      const found = changes.findIndex((change) => change > ms);
      const next = found === -1 ? changes.length : found;
      from = next > 0 ? (changes[next - 1] as number) : Number.NEGATIVE_INFINITY;
      to = next < changes.length ? (changes[next] as number) : Number.POSITIVE_INFINITY;
      current = entries.filter((entry) => inForce(entry, ms));
      return current;
    },
  };
}
