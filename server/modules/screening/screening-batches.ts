/**
 * Screenings judged in cycles (decisions 015 and 016). Screenings that arrive while a cycle's
 * statement is in the database wait for the next. Each cycle is one statement, so one round
 * trip and one commit: it writes the screenings judged in the cycle before and counts every
 * probe of those waiting (up to 64); then the engine judges each in arrival order, and they
 * are written by the next cycle. A screening is answered once it is committed.
 *
 * Exact on one instance. A screening judged but not yet committed is "unseen": counts add it
 * from memory (the statement that writes it cannot see it, one snapshot; none before it ran).
 * Plain counts add the unseen rows they match; a distinct count (users on a device, cards of
 * an email) gets the distinct values the database counted and adds those of the unseen rows,
 * so one person is never counted twice. Inside a batch, each screening is counted with the
 * ones judged before it. Across instances: two screenings of one identity on two instances
 * miss each other when each is counted before the other is committed, that is when they
 * arrive within about one cycle (a few milliseconds) of each other; decision 015 has the
 * figures.
 *
 * A screening's decision event (screening.blocked, screening.review) is stored by the
 * statement that stores the screening, so both commit or neither (decision 014). Only a
 * cycle with an event some endpoint wants uses the statement that stores events.
 */
import { randomUUID } from "node:crypto";
import type { Probe } from "./probes.ts";
import type {
  Counted,
  CountRequest,
  ScreeningEventRow,
  ScreeningRepository,
  StoredScreening,
} from "./screening.repository.ts";

/**
 * The decision event a judged screening reports, if an endpoint of its account may want it:
 * null (no promise) for most screenings, so a cycle without one awaits nothing
 * (decision-events.ts screeningEvents).
 */
export type ScreeningEventOf = (
  id: string,
  row: StoredScreening,
) => Promise<ScreeningEventRow | null> | null;

/**
 * Test fault hook, set only by test/faults/decision-events.fault.test.ts: the process kills
 * itself (SIGKILL, as kill -9) right after a cycle's write holding a blocked screening
 * commits, before any of its screenings is answered: the moment at which an event stored
 * after the decision was lost.
 */
const CRASH_AFTER_COMMIT = process.env.WARDEN_FAULT_CRASH_AFTER_SCREENING_COMMIT === "1";

/** A screening waiting for its batch: what to count, and how to judge it once counted. */
export type Pending<R> = CountRequest & {
  judge(counted: Counted): { row: StoredScreening; result: (id: string) => R };
};

/** At most this many screenings share a batch; beyond it they wait for the next. */
const MAX_BATCH = 64;

/** A judged screening, under the id it is stored with. */
type Judged = { id: string; row: StoredScreening };

/**
 * The unseen screenings of a cycle, by identity: a probe reads only the rows of its own
 * identity, not every unseen row (at the closed-loop maximum a cycle holds about sixty, and
 * each of a batch's probes walked them all: 3 % of the server's CPU).
 */
class Unseen {
  private readonly byIdentity = new Map<string, Judged[]>();

  add(judged: Judged) {
    const { accountId, identities } = judged.row;
    for (const [kind, value] of Object.entries(identities.values)) {
      const key = identityKey(accountId, kind, value);
      const rows = this.byIdentity.get(key);
      if (rows) rows.push(judged);
      else this.byIdentity.set(key, [judged]);
    }
  }

  /** The unseen rows of `probe`'s identity, oldest first. */
  of(accountId: string, probe: Probe): readonly Judged[] {
    return this.byIdentity.get(identityKey(accountId, probe.kind, probe.value)) ?? NONE;
  }

  get empty() {
    return this.byIdentity.size === 0;
  }
}

const NONE: readonly Judged[] = [];
const identityKey = (accountId: string, kind: string, value: string) =>
  `${accountId}\u0000${kind}\u0000${value}`;

/** Whether an unseen row of `probe`'s identity is one that `probe` counts. */
function matches(probe: Probe, row: StoredScreening): boolean {
  if (row.createdAt < probe.since) return false;
  if (probe.types && !probe.types.includes(row.type)) return false;
  if (probe.notBlocked && row.blocked) return false;
  if (probe.promo && row.identities.values.promo !== probe.promo) return false;
  if (probe.user && row.identities.values.user !== probe.user) return false;
  return true;
}

/** What a probe compares (and counts distinct): the row's user, or its card. */
const compared = (probe: Probe, row: StoredScreening) =>
  (probe.measure === "distinctCard" ? row.identities.values.card : row.identities.subject) ?? null;

/** One probe's answer: the database's, with the unseen rows of its identity added. */
function withRows(
  probe: Probe,
  answer: number,
  values: readonly string[] | null,
  rows: readonly Judged[],
): number {
  if (probe.measure === "count") {
    let n = answer;
    for (const { row } of rows) {
      if (!matches(probe, row)) continue;
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
    if (!matches(probe, row)) continue;
    const value = compared(probe, row);
    if (value === null || value === probe.except) continue;
    distinct ??= new Set(values ?? []);
    distinct.add(value);
  }
  return distinct ? distinct.size : answer;
}

/**
 * A "subjects" answer with the unseen rows of its identity added: each end user once, first
 * seen at its earliest row, bad if any row was blocked (`subject|first ms|bad`).
 */
function subjectsWithRows(
  probe: Probe,
  values: readonly string[] | null,
  rows: readonly Judged[],
): string[] {
  const merged = new Map<string, { first: number; bad: boolean }>();
  for (const text of values ?? []) {
    const [subject, first, bad] = text.split("|");
    if (subject) merged.set(subject, { first: Number(first), bad: bad === "1" });
  }
  for (const { row } of rows) {
    if (!matches(probe, row)) continue;
    const subject = row.identities.subject;
    if (subject === null) continue;
    const at = row.createdAt.getTime();
    const known = merged.get(subject);
    if (known) {
      known.first = Math.min(known.first, at);
      known.bad ||= row.blocked;
    } else merged.set(subject, { first: at, bad: row.blocked });
  }
  return [...merged].map(([subject, e]) => `${subject}|${e.first}|${e.bad ? 1 : 0}`);
}

/** A screening's counts with the unseen screenings added. */
function withUnseen(item: Pending<unknown>, counted: Counted, unseen: Unseen): Counted {
  if (unseen.empty) return counted;
  let values = counted.values;
  const answers = counted.answers.map((answer, n) => {
    const probe = item.probes[n] as Probe;
    const rows = unseen.of(item.accountId, probe);
    if (rows.length === 0) return answer;
    if (probe.measure === "subjects") {
      const merged = subjectsWithRows(probe, counted.values[n] ?? null, rows);
      if (values === counted.values) values = [...counted.values];
      values[n] = merged;
      return merged.length;
    }
    return withRows(probe, answer, counted.values[n] ?? null, rows);
  });
  return { ...counted, answers, values };
}

type Waiting = {
  item: Pending<unknown>;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
};

/** A judged screening waiting to be written, and its caller's answer once it is. */
type Writing = Judged & {
  /** Its decision event, being looked up; then the event to store with it (null: none). */
  event: Promise<ScreeningEventRow | null> | null;
  staged?: ScreeningEventRow | null;
  answer: () => unknown;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
};

export function createScreeningBatches(
  repo: ScreeningRepository,
  /** Told the size of each batch counted (metrics, tests). */
  onBatch?: (size: number) => void,
  /** Each judged screening's decision event, stored with it. */
  eventOf?: ScreeningEventOf,
  /** Told after a write that stored decision events committed (wakes the webhooks worker). */
  eventsStored?: () => void,
  /** Told of each screening once it is committed (the console's live pages, the baseline). */
  stored?: (row: StoredScreening) => void,
) {
  /** Judged and not yet known to be committed, by id, oldest first. */
  const unseen = new Map<string, StoredScreening>();
  const waiting: Waiting[] = [];
  let judged: Writing[] = [];
  let busy = false;
  let scheduled = false;

  /** The judged screenings' writes succeeded: each is answered. */
  function written(batch: readonly Writing[]) {
    for (const w of batch) {
      unseen.delete(w.id);
      stored?.(w.row);
      try {
        w.resolve(w.answer());
      } catch (error) {
        w.reject(error);
      }
    }
  }

  /** Judges each counted screening in order, with the unseen rows and those judged before it. */
  function judgeAll(batch: readonly Waiting[], counted: readonly Counted[], earlier: Unseen) {
    for (const [i, w] of batch.entries()) {
      try {
        const { row, result } = w.item.judge(withUnseen(w.item, counted[i] as Counted, earlier));
        const id = randomUUID();
        earlier.add({ id, row });
        unseen.set(id, row);
        judged.push({
          id,
          row,
          event: eventOf ? eventOf(id, row) : null,
          answer: () => result(id),
          resolve: w.resolve,
          reject: w.reject,
        });
      } catch (error) {
        w.reject(error);
      }
    }
  }

  /**
   * The statement failed, and kept nothing: which part failed is unknown. Each write goes
   * alone, so each caller gets its own result or error; then the batch is counted again (no
   * screening is unseen any more), and alone if it fails again.
   */
  async function oneByOne(writing: readonly Writing[], counting: readonly Waiting[]) {
    for (const w of writing) {
      try {
        await repo.storeBatch([w.row], [w.id], w.staged ? [w.staged] : NO_EVENTS);
        if (w.staged) eventsStored?.();
        written([w]);
      } catch (error) {
        unseen.delete(w.id);
        w.reject(error);
      }
    }
    // Every write has ended: nothing is unseen, the count sees what was stored.
    try {
      judgeAll(counting, await repo.countBatch(counting.map((w) => w.item)), new Unseen());
    } catch {
      for (const w of counting) {
        try {
          judgeAll([w], await repo.countBatch([w.item]), new Unseen());
        } catch (error) {
          w.reject(error);
        }
      }
    }
  }

  /**
   * One cycle: the screenings judged last cycle are written and those waiting are counted, in
   * one statement; then the counted ones are judged, to be written next cycle.
   */
  async function cycle() {
    scheduled = false;
    busy = true;
    const counting = waiting.splice(0, MAX_BATCH);
    const writing = judged;
    judged = [];
    if (counting.length > 0) onBatch?.(counting.length);
    // Every screening not yet committed is one the count cannot see (the ones written by this
    // statement are all of them): counted from memory.
    const earlier = new Unseen();
    for (const [id, row] of unseen) earlier.add({ id, row });
    try {
      const events = writing.some((w) => w.event) ? await eventsOf(writing) : NO_EVENTS;
      const counted = await repo.storeAndCount(
        writing.map((w) => w.row),
        ids(writing),
        counting.map((w) => w.item),
        events,
      );
      if (CRASH_AFTER_COMMIT && writing.some((w) => w.row.blocked)) {
        process.kill(process.pid, "SIGKILL");
      }
      if (events.length > 0) eventsStored?.();
      written(writing);
      judgeAll(counting, counted, earlier);
    } catch {
      await oneByOne(writing, counting);
    } finally {
      busy = false;
      schedule();
    }
  }

  /**
   * Runs the next cycle after the event loop's next I/O phase, so that requests already
   * received join it (with the embedded database nothing arrives while a statement runs).
   */
  function schedule() {
    if (scheduled || busy || (waiting.length === 0 && judged.length === 0)) return;
    scheduled = true;
    setImmediate(() => void cycle());
  }

  return <R>(item: Pending<R>): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve: resolve as (result: unknown) => void, reject });
      schedule();
    });
}

const ids = (judged: readonly { id: string }[]) => judged.map((j) => j.id);

const NO_EVENTS: readonly ScreeningEventRow[] = [];

/** The events of the screenings about to be written, once looked up; each kept on its own. */
async function eventsOf(writing: readonly Writing[]): Promise<ScreeningEventRow[]> {
  const events: ScreeningEventRow[] = [];
  for (const w of writing) {
    w.staged = w.event ? await w.event : null;
    if (w.staged) events.push(w.staged);
  }
  return events;
}

export type ScreeningBatches = ReturnType<typeof createScreeningBatches>;
