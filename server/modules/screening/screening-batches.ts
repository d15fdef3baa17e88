/**
 * Screenings judged in batches (decisions 015 and 016), in two stages that overlap. Counting:
 * screenings that arrive while a batch is being counted wait, and the next batch takes them
 * all: one statement counts every probe of every screening, and the engine judges each in
 * arrival order. Writing: the judged screenings go to a group committer, and each is answered
 * once its batch is committed. The next batch is counted while the last one is written.
 *
 * Exact on one instance. A screening judged but not yet known to be committed is "unseen":
 * the count statement leaves its rows out (by screening id), and they are counted from memory
 * instead, so whether the statement would have seen them does not matter. Plain counts add
 * them; a distinct count (users on a device, cards of an email) gets the distinct values the
 * database counted and adds theirs, so one person is never counted twice. Inside a batch, each
 * screening is counted with the ones judged before it. Across instances: two screenings of
 * one identity on two instances miss each other when each is counted before the other is
 * committed, that is when they arrive within about one batch (a few milliseconds) of each
 * other; decision 015 has the figures.
 */
import { randomUUID } from "node:crypto";
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
  /** What the screening stores (what later screenings count from memory until committed). */
  ids: Identities;
  judge(counted: Counted): { row: StoredScreening; result: (id: string) => R };
};

/** At most this many screenings share a batch; beyond it they wait for the next. */
const MAX_BATCH = 64;

/** A judged screening, under the id it is stored with. */
type Judged = { id: string; row: StoredScreening };

/** Whether a judged screening's row is one that `probe` (of `accountId`) counts. */
function matches(probe: Probe, accountId: string, row: StoredScreening): boolean {
  const ids = row.identities;
  if (row.accountId !== accountId || ids.values[probe.kind] !== probe.value) return false;
  if (row.createdAt < probe.since) return false;
  if (probe.types && !probe.types.includes(row.type)) return false;
  if (probe.notBlocked && row.blocked) return false;
  if (probe.promo && ids.values.promo !== probe.promo) return false;
  if (probe.user && ids.values.user !== probe.user) return false;
  return true;
}

/** What a probe compares (and counts distinct): the row's user, or its card. */
const compared = (probe: Probe, row: StoredScreening) =>
  (probe.measure === "distinctCard" ? row.identities.values.card : row.identities.subject) ?? null;

/** One probe's answer: the database's, with the unseen screenings `rows` added. */
function withRows(
  probe: Probe,
  accountId: string,
  answer: number,
  values: readonly string[] | null,
  rows: readonly Judged[],
): number {
  if (probe.measure === "count") {
    let n = answer;
    for (const { row } of rows) {
      if (!matches(probe, accountId, row)) continue;
      if (probe.except) {
        const value = compared(probe, row);
        if (value === null || value === probe.except) continue;
      }
      n++;
    }
    return n;
  }
  let distinct: Set<string> | null = null;
  for (const { row } of rows) {
    if (!matches(probe, accountId, row)) continue;
    const value = compared(probe, row);
    if (value === null || value === probe.except) continue;
    distinct ??= new Set(values ?? []);
    distinct.add(value);
  }
  return distinct ? distinct.size : answer;
}

/** A screening's counts with the unseen screenings added. */
function withUnseen(item: Pending<unknown>, counted: Counted, rows: readonly Judged[]): Counted {
  if (rows.length === 0) return counted;
  const answers = counted.answers.map((answer, n) =>
    withRows(item.probes[n] as Probe, item.accountId, answer, counted.values[n] ?? null, rows),
  );
  return { ...counted, answers };
}

export function createScreeningBatches(
  repo: ScreeningRepository,
  /** Told the size of each batch counted (metrics, tests). */
  onBatch?: (size: number) => void,
) {
  /** Judged and not yet known to be committed, by id, oldest first. */
  const unseen = new Map<string, StoredScreening>();

  const write = createBatcher(
    (judged: Judged[]) =>
      repo.storeBatch(
        judged.map((j) => j.row),
        judged.map((j) => j.id),
      ),
    { lanes: 1, maxBatch: MAX_BATCH },
  );

  /** Stores one judged screening; once committed (or failed) it is no longer unseen. */
  async function store(judged: Judged): Promise<string> {
    try {
      return await write(judged);
    } finally {
      unseen.delete(judged.id);
    }
  }

  async function judgeAll<R>(items: Pending<R>[]): Promise<{ done: Promise<R> }[]> {
    // Taken before the count is sent: a screening committed after this is left out of the
    // count and counted here; one committed before is one the count sees.
    const earlier: Judged[] = [...unseen].map(([id, row]) => ({ id, row }));
    const counted = await repo.countBatch(
      items,
      earlier.map((j) => j.id),
    );
    // In order: each is judged with the unseen rows and those of the batch before it. All are
    // judged before any is kept, so a judge that throws leaves nothing behind (the batcher
    // then runs each alone).
    const judged = items.map((item, i) => {
      const { row, result } = item.judge(withUnseen(item, counted[i] as Counted, earlier));
      const entry = { id: randomUUID(), row };
      earlier.push(entry);
      return { entry, result };
    });
    return judged.map(({ entry, result }) => {
      unseen.set(entry.id, entry.row);
      return { done: store(entry).then(result) };
    });
  }

  const batch = createBatcher(judgeAll, { lanes: 1, maxBatch: MAX_BATCH, onBatch });
  return async <R>(item: Pending<R>): Promise<R> => {
    const { done } = (await batch(item)) as { done: Promise<R> };
    return done;
  };
}

export type ScreeningBatches = ReturnType<typeof createScreeningBatches>;
