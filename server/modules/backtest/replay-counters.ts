/**
 * The counting query of a live screening (screening.repository's probeQuery), answered from
 * memory while a backtest replays events in time order. Rows are held as columns of typed
 * arrays (a few dozen bytes each, nothing for the garbage collector to trace) and each hashed
 * identity is a chain of its rows, newest first, so a probe walks back from now to its
 * window's start. Identities whose newest row is past their kind's look-back are forgotten as
 * the replay moves on.
 */
import { SUBJECT_ROWS, SUBJECTS_MAX } from "../../engine/links.ts";
import { countsAsked } from "../../engine/rule-counts.ts";
import type { Policy } from "../../engine/types.ts";
import type { IdentityKind, Probe } from "../screening/screening.entry.ts";
import { createDigestTable, type DigestTable } from "./digest-table.ts";

/** One stored identity row as the counting query sees it (hashes, type, time, blocked). */
export type CounterRow = {
  /** Milliseconds since the epoch. */
  at: number;
  type: string;
  blocked: boolean;
  subject: string | null;
  user: string | null;
  card: string | null;
  promo: string | null;
};

/**
 * How far back each identity kind must be remembered for the probes this policy can ask:
 * each declaration's window (rule-counts.ts), over the kinds its probes read.
 */
export function lookback(policy: Policy): Partial<Record<IdentityKind, number>> {
  const keep: Partial<Record<IdentityKind, number>> = {};
  for (const decl of countsAsked(policy)) {
    const ms = decl.window(policy.settings);
    for (const kind of decl.atReferrer ? (["user"] as const) : decl.kinds) {
      keep[kind] = Math.max(keep[kind] ?? 0, ms);
    }
  }
  return keep;
}

export function createReplayCounters(keep: Partial<Record<IdentityKind, number>>) {
  // Rows are columns in typed arrays (no object per row), their text fields interned as ints.
  // Each identity (kind, hashed value) is a chain of links, newest first: the map holds its
  // newest link and each link the one before, so a probe walks back from now to its window's
  // start. Rows arrive in time order (seeds sorted once by `settle`, then the replay's).
  let capacity = 1 << 16;
  let rowCount = 0;
  let at = new Float64Array(capacity);
  let typeOf = new Uint8Array(capacity);
  let blockedOf = new Uint8Array(capacity);
  let subjectOf = new Int32Array(capacity);
  let userOf = new Int32Array(capacity);
  let cardOf = new Int32Array(capacity);
  let promoOf = new Int32Array(capacity);
  let linkCapacity = 1 << 16;
  let linkCount = 0;
  let linkRow = new Int32Array(linkCapacity);
  let linkPrev = new Int32Array(linkCapacity);

  const symbols = createDigestTable();
  const types = new Map<string, number>();
  const heads = new Map<IdentityKind, DigestTable>();
  let pending: { kind: IdentityKind; value: string; row: CounterRow }[] = [];
  let lastRow: CounterRow | null = null;
  let lastIndex = -1;
  let latest = Number.NEGATIVE_INFINITY;
  let added = 0;

  const NONE = -1;
  const symbol = (text: string | null): number => {
    if (text === null) return NONE;
    return symbols.getOrAdd(text, symbols.size);
  };
  /** An interned id for a text to compare with, or -2 when no row holds it (matches none). */
  const known = (text: string | null | undefined): number =>
    text == null ? NONE : (symbols.get(text) ?? -2);

  function grow<T extends Float64Array | Int32Array | Uint8Array>(array: T, size: number): T {
    const bigger = new (array.constructor as new (n: number) => T)(size);
    bigger.set(array);
    return bigger;
  }

  function pushRow(row: CounterRow): number {
    if (rowCount === capacity) {
      capacity *= 2;
      at = grow(at, capacity);
      typeOf = grow(typeOf, capacity);
      blockedOf = grow(blockedOf, capacity);
      subjectOf = grow(subjectOf, capacity);
      userOf = grow(userOf, capacity);
      cardOf = grow(cardOf, capacity);
      promoOf = grow(promoOf, capacity);
    }
    let type = types.get(row.type);
    if (type === undefined) {
      type = types.size;
      if (type > 31) throw new Error("more than 32 screening types");
      types.set(row.type, type);
    }
    const i = rowCount++;
    at[i] = row.at;
    typeOf[i] = type;
    blockedOf[i] = row.blocked ? 1 : 0;
    subjectOf[i] = symbol(row.subject);
    userOf[i] = symbol(row.user);
    cardOf[i] = symbol(row.card);
    promoOf[i] = symbol(row.promo);
    return i;
  }

  function link(kind: IdentityKind, value: string, row: number) {
    let values = heads.get(kind);
    if (!values) {
      values = createDigestTable();
      heads.set(kind, values);
    }
    if (linkCount === linkCapacity) {
      linkCapacity *= 2;
      linkRow = grow(linkRow, linkCapacity);
      linkPrev = grow(linkPrev, linkCapacity);
    }
    const l = linkCount++;
    linkRow[l] = row;
    linkPrev[l] = values.swap(value, l) ?? NONE;
  }

  /** Forgets the identities whose newest row is older than their kind's look-back. */
  function sweep(now: number) {
    for (const [kind, values] of heads) {
      const before = now - (keep[kind] ?? 0);
      values.retain((l) => (at[linkRow[l] as number] as number) >= before);
    }
  }

  /** The bits of the row types `wanted` names (every bit: every type). */
  function typeMask(wanted: readonly string[] | undefined): number {
    if (!wanted) return -1;
    let mask = 0;
    for (const type of wanted) {
      const code = types.get(type);
      if (code !== undefined) mask |= 1 << code;
    }
    return mask;
  }

  function settle() {
    if (pending.length === 0) return;
    const seeds = pending;
    pending = [];
    // Stable: rows of one instant keep the order they were read in.
    seeds.sort((a, b) => a.row.at - b.row.at);
    for (const seed of seeds) link(seed.kind, seed.value, pushRow(seed.row));
  }

  return {
    /** Whether rows of this kind are ever counted under the policy. */
    wants(kind: IdentityKind): boolean {
      return (keep[kind] ?? 0) > 0;
    },

    /** Records a row of the history before the replay, in any order; `settle` sorts them. */
    seed(kind: IdentityKind, value: string, row: CounterRow) {
      if (keep[kind]) pending.push({ kind, value, row });
    },

    /** Puts the seeded rows into time order, once, before the first `add`. */
    settle,

    /**
     * Records a replayed row; replayed rows arrive in time order, after every seed. The same
     * row object added under several identities is stored once.
     */
    add(kind: IdentityKind, value: string, row: CounterRow) {
      if (!keep[kind]) return;
      if (pending.length > 0) settle();
      if (row !== lastRow) {
        lastRow = row;
        lastIndex = pushRow(row);
        if (row.at > latest) latest = row.at;
      }
      link(kind, value, lastIndex);
      added += 1;
      if (added % 500_000 === 0) sweep(latest);
    },

    /** An end user as subjects() names it (its interned id), to tell it from the others. */
    subjectKey(subject: string | null): string | null {
      return subject === null ? null : String(known(subject));
    },

    /**
     * A "subjects" probe's end users, as the live query gives them (`subject|first ms|bad`,
     * the subject by its interned id: subjectKey),
     * from the identity's SUBJECT_ROWS newest rows of the types asked, in the window).
     */
    subjects(probe: Probe): string[] {
      let l = heads.get(probe.kind)?.get(probe.value);
      if (l === undefined) return [];
      const since = Math.max(probe.since.getTime(), latest - (keep[probe.kind] ?? 0));
      const mask = typeMask(probe.types);
      const seen = new Map<number, { first: number; bad: boolean }>();
      let rows = 0;
      for (; l !== NONE && rows < SUBJECT_ROWS; l = linkPrev[l] as number) {
        const r = linkRow[l] as number;
        if ((at[r] as number) < since) break;
        if ((mask & (1 << (typeOf[r] as number))) === 0) continue;
        rows += 1;
        const subject = subjectOf[r] as number;
        if (subject === NONE) continue;
        const known = seen.get(subject);
        // Newest first: each older row moves the first sighting back.
        if (known) {
          known.first = at[r] as number;
          known.bad ||= blockedOf[r] === 1;
        } else seen.set(subject, { first: at[r] as number, bad: blockedOf[r] === 1 });
      }
      const out: string[] = [];
      for (const [subject, e] of seen) {
        if (out.length === SUBJECTS_MAX) break;
        out.push(`${subject}|${e.first}|${e.bad ? 1 : 0}`);
      }
      return out;
    },

    /** The probe's answer, exactly as the live counting query gives it. */
    answer(probe: Probe): number {
      if (probe.measure === "subjects") return this.subjects(probe).length;
      let l = heads.get(probe.kind)?.get(probe.value);
      if (l === undefined) return 0;
      // Rows past the kind's look-back count as forgotten, whether or not a sweep dropped them.
      const since = Math.max(probe.since.getTime(), latest - (keep[probe.kind] ?? 0));
      const mask = typeMask(probe.types);
      const notBlocked = probe.notBlocked === true;
      const promo = probe.promo ? known(probe.promo) : null;
      const user = probe.user ? known(probe.user) : null;
      const measure = probe.measure;
      const except = probe.except ? known(probe.except) : NONE;
      const distinct = measure === "count" ? null : new Set<number>();
      const column = measure === "distinctCard" ? cardOf : subjectOf;
      let count = 0;
      for (; l !== NONE; l = linkPrev[l] as number) {
        const r = linkRow[l] as number;
        if ((at[r] as number) < since) break;
        if ((mask & (1 << (typeOf[r] as number))) === 0) continue;
        if (notBlocked && blockedOf[r] === 1) continue;
        if (promo !== null && promoOf[r] !== promo) continue;
        if (user !== null && userOf[r] !== user) continue;
        if (distinct) {
          // SQL: count(DISTINCT x) skips nulls, and `x <> except` is false for a null x.
          const value = column[r] as number;
          if (value === NONE) continue;
          if (value === except) continue;
          distinct.add(value);
        } else {
          count += 1;
        }
      }
      return distinct ? distinct.size : count;
    },

    /** Identity lists held (for the benchmark's memory report). */
    size(): number {
      let n = 0;
      for (const values of heads.values()) n += values.size;
      return n;
    },
  };
}

export type ReplayCounters = ReturnType<typeof createReplayCounters>;
