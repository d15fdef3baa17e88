/**
 * A merchant's training set, pure: which of its event screenings are labelled and how (the
 * newest word on each wins), and their signal values packed for the fit. Where a verdict comes
 * from, first match wins:
 * 1. The screening's own word: its newest label (console, API) or its review decision
 *    (denied: fraud, approved: legitimate), whichever is newer.
 * 2. Stripe, for checkout screenings: a charge with the same email or card fingerprint,
 *    created within STRIPE_WINDOW_DAYS after the screening, whose newest label is fraud
 *    (Stripe's fraud disputes and early fraud warnings label the charge so) makes it fraud; a
 *    charge labelled legitimate, or one that succeeded over STRIPE_WINDOW_DAYS ago and was
 *    never refunded nor disputed, makes it legitimate. Fraud wins over legitimate. A charge
 *    disputed for another reason (product not received…) says nothing either way.
 * Only the newest MAX_TRAINING_ROWS labelled screenings are read, so a fit stays bounded.
 * Each verdict keeps who gave it (a member or an API key; Stripe's own records are no one's),
 * so a proposal can say when most of its labels came from one source.
 */
import { SIGNAL_KEYS } from "../../engine/signals.ts";

/** How long after a checkout screening a charge's dispute or settlement speaks for it. */
export const STRIPE_WINDOW_DAYS = 60;
/** The newest labelled screenings a fit reads. */
export const MAX_TRAINING_ROWS = 100_000;
/** Cross-validation folds. */
export const FOLDS = 5;

export type Verdict = 0 | 1;
export type VerdictSource = "labels" | "reviews" | "stripe";
/** Who gave a verdict: "member:<user id>" or "api_key:<key id>"; null for Stripe's own. */
export type By = string | null;

/** A screening's newest label, or its review decision. */
export type OwnWord = {
  id: string;
  createdAt: Date;
  at: Date;
  y: Verdict;
  source: VerdictSource;
  by: By;
};
/** A charge Stripe's records judge (see the header); created in Unix seconds. */
export type ChargeVerdict = {
  email: string | null;
  card: string | null;
  created: number;
  y: Verdict;
  /** Who labelled the charge; null when Stripe's own records judge it. */
  by: By;
};
/** A checkout screening's identities, to match charges with. */
export type CheckoutRow = {
  id: string;
  createdAt: Date;
  email: string | null;
  card: string | null;
};
export type Labelled = { id: string; createdAt: Date; y: Verdict; source: VerdictSource; by: By };

/** What the rules (not the score) did to a screening: "allow" when an allow-list entry decided it. */
export type RuleAction = "block" | "review" | "allow" | null;
/** A stored screening as a fit and a backtest read it: its signal values and its rules' action. */
export type FeatureRow = { id: string; type: string; x: Record<string, number>; rule: RuleAction };

const DAY_SECONDS = 86_400;

/** The checkout screenings a charge speaks for, each once: fraud if any fraud charge matched. */
export function stripeVerdicts(
  charges: readonly ChargeVerdict[],
  screenings: readonly CheckoutRow[],
): Labelled[] {
  const byEmail = new Map<string, ChargeVerdict[]>();
  const byCard = new Map<string, ChargeVerdict[]>();
  const index = (map: Map<string, ChargeVerdict[]>, key: string | null, charge: ChargeVerdict) => {
    if (!key) return;
    const list = map.get(key);
    if (list) list.push(charge);
    else map.set(key, [charge]);
  };
  for (const charge of charges) {
    index(byEmail, charge.email?.toLowerCase() ?? null, charge);
    index(byCard, charge.card, charge);
  }
  const out: Labelled[] = [];
  for (const s of screenings) {
    const from = s.createdAt.getTime() / 1000;
    const until = from + STRIPE_WINDOW_DAYS * DAY_SECONDS;
    let y: Verdict | null = null;
    let by: By = null;
    for (const list of [
      s.email ? byEmail.get(s.email.toLowerCase()) : undefined,
      s.card ? byCard.get(s.card) : undefined,
    ]) {
      for (const charge of list ?? []) {
        if (charge.created < from || charge.created > until || y === 1) continue;
        y = charge.y;
        by = charge.by;
      }
    }
    if (y !== null) out.push({ id: s.id, createdAt: s.createdAt, y, source: "stripe", by });
  }
  return out;
}

/**
 * Every labelled screening once, newest first, at most `cap`: a screening's own word (its
 * newest) wins over Stripe's.
 */
export function labelledSet(
  own: readonly OwnWord[],
  stripe: readonly Labelled[],
  cap = MAX_TRAINING_ROWS,
): { rows: Labelled[]; capped: boolean } {
  const newest = new Map<string, OwnWord>();
  for (const word of own) {
    const seen = newest.get(word.id);
    if (!seen || word.at > seen.at) newest.set(word.id, word);
  }
  const rows: Labelled[] = [...newest.values()].map(({ id, createdAt, y, source, by }) => ({
    id,
    createdAt,
    y,
    source,
    by,
  }));
  for (const s of stripe) if (!newest.has(s.id)) rows.push(s);
  rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  return { rows: rows.slice(0, cap), capped: rows.length > cap };
}

/**
 * The member or API key that gave the most verdicts (`tally`: counts by `By` key), and how
 * many; null when none did. Of equal counts, the first counted.
 */
export function topSource(
  tally: ReadonlyMap<string, number>,
): { kind: "member" | "api_key"; id: string; labels: number } | null {
  let top: [string, number] | null = null;
  for (const entry of tally) if (!top || entry[1] > top[1]) top = entry;
  if (!top) return null;
  const [key, labels] = top;
  const at = key.indexOf(":");
  const kind = key.slice(0, at) === "api_key" ? "api_key" : "member";
  return { kind, id: key.slice(at + 1), labels };
}

/** A screening's fold: fixed by its id, so the same labels give the same folds. */
export function foldOf(id: string, folds = FOLDS): number {
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16777619);
  return (hash >>> 0) % folds;
}

/** Identical labelled screenings of one fold, counted once with their number. */
export type Aggregate = {
  fold: number;
  type: string;
  rule: RuleAction;
  y: Verdict;
  x: Record<string, number>;
  count: number;
};

/**
 * The labelled rows in flat arrays (transferable to the fit's worker thread without copying):
 * row i has meta[4i..4i+3] = fold, type index, rule code, y; its signals are
 * signals/values[start[i] .. start[i+1]).
 */
export type Packed = {
  types: string[];
  meta: Int32Array;
  counts: Float64Array;
  start: Int32Array;
  signals: Int16Array;
  values: Float64Array;
};

const RULES: RuleAction[] = [null, "review", "block", "allow"];
const SIGNAL_INDEX = new Map<string, number>(SIGNAL_KEYS.map((key, i) => [key, i]));

/**
 * Collects labelled rows as they are read, identical ones (same fold, type, rules' action,
 * label and signal values) counted once: most events share a handful of signal patterns, so a
 * fit on 100,000 labels reads a few thousand weighted rows.
 */
export function createRowSet(folds = FOLDS) {
  const at = new Map<string, number>();
  const types: string[] = [];
  const meta: number[] = [];
  const counts: number[] = [];
  const start: number[] = [0];
  const signals: number[] = [];
  const values: number[] = [];
  let fraud = 0;
  let legitimate = 0;
  return {
    add(row: FeatureRow, y: Verdict) {
      if (y === 1) fraud += 1;
      else legitimate += 1;
      const pairs: [number, number][] = [];
      for (const [key, value] of Object.entries(row.x)) {
        const i = SIGNAL_INDEX.get(key);
        if (i !== undefined && value) pairs.push([i, value]);
      }
      pairs.sort((a, b) => a[0] - b[0]);
      let type = types.indexOf(row.type);
      if (type < 0) type = types.push(row.type) - 1;
      const head = [foldOf(row.id, folds), type, RULES.indexOf(row.rule), y];
      const key = `${head.join(",")}|${pairs.join(";")}`;
      const seen = at.get(key);
      if (seen !== undefined) {
        counts[seen] = (counts[seen] ?? 0) + 1;
        return;
      }
      at.set(key, counts.length);
      meta.push(...head);
      counts.push(1);
      for (const [i, value] of pairs) {
        signals.push(i);
        values.push(value);
      }
      start.push(signals.length);
    },
    get fraud() {
      return fraud;
    },
    get legitimate() {
      return legitimate;
    },
    packed(): Packed {
      return {
        types: [...types],
        meta: Int32Array.from(meta),
        counts: Float64Array.from(counts),
        start: Int32Array.from(start),
        signals: Int16Array.from(signals),
        values: Float64Array.from(values),
      };
    },
  };
}

/** The packed rows as objects again (in the fit's thread). */
export function unpack(p: Packed): Aggregate[] {
  const out: Aggregate[] = [];
  for (let i = 0; i < p.counts.length; i++) {
    const x: Record<string, number> = {};
    for (let j = p.start[i] ?? 0; j < (p.start[i + 1] ?? 0); j++) {
      const key = SIGNAL_KEYS[p.signals[j] ?? -1];
      if (key) x[key] = p.values[j] ?? 0;
    }
    out.push({
      fold: p.meta[4 * i] ?? 0,
      type: p.types[p.meta[4 * i + 1] ?? 0] ?? "",
      rule: RULES[p.meta[4 * i + 2] ?? 0] ?? null,
      y: p.meta[4 * i + 3] === 1 ? 1 : 0,
      x,
      count: p.counts[i] ?? 0,
    });
  }
  return out;
}
