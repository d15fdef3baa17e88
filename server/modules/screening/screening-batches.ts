/**
 * Screenings judged in batches (decision 015). Screenings that arrive while a batch is in the
 * database wait; the next batch takes them all: one statement counts every probe of every
 * screening, the engine judges each, one statement stores them all, and only then are they
 * answered. So under load two round trips serve many screenings, and a screening answered
 * 200 is committed.
 *
 * Exact on one instance: one batch at a time, each read after the one before has committed;
 * inside a batch, screenings are judged in arrival order, each plain count adding the rows of
 * the screenings before it in the batch; a screening with a distinct count (users on a
 * device, cards of an email) over an identity one before it in the batch stores waits for
 * the next batch. Across instances: two screenings of one identity on two instances miss each
 * other when each is counted before the other is stored, that is when they arrive within about
 * one batch (a few milliseconds) of each other; decision 015 has the figures.
 */
import { createBatcher } from "../../lib/batcher.ts";
import type { Identities } from "./identities.ts";
import type { Probe } from "./probes.ts";
import type {
  Counted,
  CountRequest,
  ScreeningRepository,
  StoredScreening,
} from "./screening.repository.ts";

/** A screening waiting for its batch: what to count, and how to judge it once counted. */
export type Pending<R> = CountRequest & {
  /** What the screening stores (to keep a later probe of them out of its batch). */
  ids: Identities;
  judge(counted: Counted): { row: StoredScreening; result: (id: string) => R };
};

/** At most this many screenings share a batch; beyond it they wait for the next. */
const MAX_BATCH = 64;

/**
 * Whether `item` has a distinct count (users, cards) over an identity that a screening already
 * in the batch will store: such a count cannot be made exact in memory (the stored rows'
 * users are in the database), so the item waits for the next batch. Plain counts can
 * (inBatch).
 */
function countsDistinct(item: Pending<unknown>, batch: readonly Pending<unknown>[]): boolean {
  for (const other of batch) {
    if (other.accountId !== item.accountId) continue;
    const stored = other.ids.values;
    for (const probe of item.probes) {
      if (probe.measure !== "count" && stored[probe.kind] === probe.value) return true;
    }
  }
  return false;
}

/** How many of the batch's earlier screenings a plain count probe counts (as COUNT would). */
function inBatch(probe: Probe, accountId: string, earlier: readonly StoredScreening[]): number {
  let n = 0;
  for (const row of earlier) {
    const ids = row.identities;
    if (row.accountId !== accountId || ids.values[probe.kind] !== probe.value) continue;
    if (row.createdAt < probe.since) continue;
    if (probe.types && !probe.types.includes(row.type)) continue;
    if (probe.notBlocked && row.blocked) continue;
    if (probe.promo && ids.values.promo !== probe.promo) continue;
    if (probe.user && ids.values.user !== probe.user) continue;
    if (probe.except && (ids.subject === null || ids.subject === probe.except)) continue;
    n++;
  }
  return n;
}

/** The counts of each screening with the batch's earlier screenings added to plain counts. */
function withEarlier(item: Pending<unknown>, counted: Counted, earlier: StoredScreening[]) {
  if (earlier.length === 0) return counted;
  const answers = counted.answers.map((answer, n) => {
    const probe = item.probes[n] as Probe;
    return probe.measure === "count" ? answer + inBatch(probe, item.accountId, earlier) : answer;
  });
  return { ...counted, answers };
}

export function createScreeningBatches(
  repo: ScreeningRepository,
  /** Told the size of each batch (metrics, tests). */
  onBatch?: (size: number) => void,
) {
  async function judgeAll<R>(items: Pending<R>[]): Promise<R[]> {
    const counted = await repo.countBatch(items);
    // In order: each is judged with the rows of those before it in the batch.
    const rows: StoredScreening[] = [];
    const results = items.map((item, i) => {
      const judged = item.judge(withEarlier(item, counted[i] as Counted, rows));
      rows.push(judged.row);
      return judged.result;
    });
    const ids = await repo.storeBatch(rows);
    return results.map((result, i) => result(ids[i] as string));
  }

  const batch = createBatcher(judgeAll, {
    lanes: 1,
    maxBatch: MAX_BATCH,
    canJoin: (item, items) => !countsDistinct(item, items),
    onBatch,
  });
  return <R>(item: Pending<R>): Promise<R> => batch(item) as Promise<R>;
}

export type ScreeningBatches = ReturnType<typeof createScreeningBatches>;
