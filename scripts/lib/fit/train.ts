/**
 * The fit itself (pure): collected events → examples for the logistic regression (the event
 * type picks the intercept; label 1 for any event of an attack population), the L2 strength
 * chosen by log-loss on held-out worlds (one-standard-error rule), the weights rounded to what
 * the file holds, and the thresholds read off the ordinary events' scores under those rounded
 * weights, for the worst training world (thresholds.ts).
 */
import { type Example, type Fitted, fitLogistic } from "../../../server/engine/fit.ts";
import { scoreAction, scoreOf } from "../../../server/engine/score.ts";
import {
  NEVER_NEGATIVE,
  SIGNAL_KEYS,
  type Signal,
  type SignalKey,
} from "../../../server/engine/signals.ts";
import { SCREEN_TYPES, type ScreenType } from "../../../shared/schemas/screening.ts";
import type { Threshold, Thresholds, Weights } from "../../../shared/score/weights.ts";
import {
  CEILINGS,
  type Ceilings,
  fixedPoint,
  guardedThresholdOf,
  MIN_ORDINARY,
  meetsCeilings,
  SAFE_DEFAULT,
  type Scored,
  worstWorld,
} from "./thresholds.ts";

/** What the fit reads of a collected event. */
export type Labelled = {
  /** The simulator's world the event was played in: lambda's folds, the thresholds' worlds. */
  world: string;
  seed: number;
  type: string;
  attack: boolean;
  signals: Readonly<Record<string, number>>;
};

/** The weights as the file holds them: 3 decimals. */
export type Model = Pick<Weights, "intercepts" | "weights">;

/** What a score needs: the weights, and the thresholds its family caps read. */
export type Scoring = Model & { thresholds: Thresholds };

export const DECIMALS = 3;

/** x to the file's precision (never -0, which JSON writes as 0 and would read back unequal). */
export function rounded(x: number): number {
  const r = Math.round(x * 10 ** DECIMALS) / 10 ** DECIMALS;
  return r === 0 ? 0 : r;
}

export function examplesOf(rows: readonly Labelled[]): Example[] {
  return rows.map((r) => ({ group: r.type, x: r.signals, y: r.attack ? 1 : 0 }));
}

/** The model's probability of an attack for one event, before any rounding. */
function probability(fitted: Fitted, row: Labelled): number {
  let z = fitted.intercepts[row.type] ?? 0;
  for (const [key, value] of Object.entries(row.signals)) z += (fitted.weights[key] ?? 0) * value;
  return 1 / (1 + Math.exp(-z));
}

/** The summed log-loss of `rows` under `fitted` (probabilities held away from 0 and 1). */
export function logLoss(fitted: Fitted, rows: readonly Labelled[]): number {
  let sum = 0;
  for (const row of rows) {
    const p = Math.min(1 - 1e-15, Math.max(1e-15, probability(fitted, row)));
    sum -= row.attack ? Math.log(p) : Math.log(1 - p);
  }
  return sum;
}

/** One L2 strength's log-loss on held-out folds: the mean over folds and its standard error. */
export type LambdaLoss = { lambda: number; logLoss: number; se: number };

export type LambdaChoice = { lambda: number; losses: LambdaLoss[] };

/**
 * The one-standard-error rule: the largest lambda whose held-out log-loss is within one
 * standard error of the lowest. Log-loss on this simulator keeps falling, a little, as lambda
 * goes to 0 (signals seen on attacks only then get ever larger weights); the rule takes the
 * simplest model the folds cannot tell from the best.
 */
export function oneStandardError(losses: readonly LambdaLoss[]): number {
  const best = losses.reduce<LambdaLoss | null>(
    (b, l) => (b === null || l.logLoss < b.logLoss ? l : b),
    null,
  );
  if (!best) throw new Error("no lambda to choose from");
  return Math.max(
    ...losses.filter((l) => l.logLoss <= best.logLoss + best.se).map((l) => l.lambda),
  );
}

/**
 * Each candidate's log-loss on worlds the fit did not see (each training world a fold: fitted
 * on the others, scored on it), and the one chosen by oneStandardError.
 */
export function chooseLambda(rows: readonly Labelled[], lambdas: readonly number[]): LambdaChoice {
  const worlds = [...new Set(rows.map((r) => r.world))].sort();
  if (worlds.length < 2) throw new Error("choosing lambda needs at least 2 worlds");
  const parts = worlds.map((world) => ({
    train: rows.filter((r) => r.world !== world),
    test: rows.filter((r) => r.world === world),
  }));
  const losses = lambdas.map((lambda) => {
    const perFold = parts.map(({ train, test }) => {
      const fitted = fitWithSigns(examplesOf(train), lambda);
      return logLoss(fitted, test) / test.length;
    });
    const mean = perFold.reduce((a, b) => a + b, 0) / parts.length;
    const variance = perFold.reduce((a, b) => a + (b - mean) ** 2, 0) / (parts.length - 1);
    return { lambda, logLoss: mean, se: Math.sqrt(variance / parts.length) };
  });
  return { lambda: oneStandardError(losses), losses };
}

/**
 * fitLogistic with the signals declared "never negative" (server/engine/signals/declarations.ts:
 * counts of what an attacker repeats) held at 0 or above: fitted, then each of them that came
 * out negative fixed at 0 (left out) and the rest fitted again, until none is (deterministic).
 */
export function fitWithSigns(examples: readonly Example[], lambda: number): Fitted {
  let keys: readonly SignalKey[] = SIGNAL_KEYS;
  for (;;) {
    const fitted = fitLogistic(examples, { keys, lambda });
    const negative = keys.filter((k) => NEVER_NEGATIVE.has(k) && (fitted.weights[k] ?? 0) < 0);
    if (negative.length === 0) {
      const weights = Object.fromEntries(SIGNAL_KEYS.map((k) => [k, fitted.weights[k] ?? 0]));
      return { ...fitted, weights };
    }
    keys = keys.filter((k) => !negative.includes(k));
  }
}

/** The weights fitted on `rows`, rounded, in SCREEN_TYPES and SIGNAL_KEYS order. */
export function fitModel(rows: readonly Labelled[], lambda: number): Model {
  const fitted = fitWithSigns(examplesOf(rows), lambda);
  const intercepts: Model["intercepts"] = {};
  for (const type of SCREEN_TYPES) {
    const b = fitted.intercepts[type];
    if (b !== undefined) intercepts[type] = rounded(b);
  }
  return {
    intercepts,
    weights: Object.fromEntries(SIGNAL_KEYS.map((k) => [k, rounded(fitted.weights[k] ?? 0)])),
  };
}

/** A collected event's signals as scoreOf reads them. */
export function signalList(signals: Readonly<Record<string, number>>): Signal[] {
  return Object.entries(signals).map(([signal, value]) => ({
    signal: signal as SignalKey,
    value,
    detail: "",
  }));
}

/** The score `scoring` gives an event (what Warden would answer with these weights). */
export function scoreWith(
  scoring: Scoring,
  row: Pick<Labelled, "type" | "signals">,
): { score: number; families: number } {
  const weights: Weights = { version: "", fitted: {}, ...scoring };
  const scored = scoreOf(row.type as ScreenType, signalList(row.signals), weights);
  return { score: scored.score, families: scored.families.length };
}

/** Whether a score at or above the block threshold would block (not be held at review). */
const blockable = (score: number, families: number) =>
  scoreAction(score, { review: score, block: score }, families) === "block";

export type ThresholdChoice = {
  thresholds: Thresholds;
  /** Ordinary events per type the thresholds were read from, every world together. */
  ordinary: Partial<Record<ScreenType, number>>;
  /** Types with too few ordinary events: no threshold (thresholds.ts SAFE_DEFAULT). */
  safeDefault: ScreenType[];
  /** Types where no round's thresholds met the ceilings under their own caps: no threshold. */
  unmet: ScreenType[];
  /** Rounds of the fixed point per type, and whether its thresholds repeated. */
  rounds: Partial<Record<ScreenType, { rounds: number; converged: boolean }>>;
};

const sameThreshold = (a: Threshold, b: Threshold) => a.review === b.review && a.block === b.block;

/**
 * Per event type, the thresholds meeting `ceilings` on the ordinary events of every world of
 * `rows` (the worst world's), found by fixed point since the caps on each family's points read
 * them: chosen on uncapped scores, scored again under the caps of that choice, chosen again.
 */
export function thresholdsOf(
  model: Model,
  rows: readonly Labelled[],
  ceilings: Ceilings = CEILINGS,
  rounds = 6,
): ThresholdChoice {
  const ordinary = new Map<string, Labelled[]>();
  for (const row of rows) {
    if (row.attack) continue;
    const list = ordinary.get(row.type) ?? [];
    list.push(row);
    ordinary.set(row.type, list);
  }
  const choice: ThresholdChoice = {
    thresholds: {},
    ordinary: {},
    safeDefault: [],
    unmet: [],
    rounds: {},
  };
  for (const type of SCREEN_TYPES) {
    const list = ordinary.get(type) ?? [];
    choice.ordinary[type] = list.length;
    if (list.length < MIN_ORDINARY) {
      choice.thresholds[type] = { ...SAFE_DEFAULT };
      choice.safeDefault.push(type);
      continue;
    }
    const worlds = [...new Set(list.map((r) => r.world))].sort();
    /** Each world's events of the type, scored under `threshold`'s caps (null: uncapped). */
    const byWorld = (threshold: Threshold | null): Scored[][] => {
      const scoring = { ...model, thresholds: threshold ? { [type]: threshold } : {} };
      return worlds.map((world) =>
        list
          .filter((r) => r.world === world)
          .map((r) => {
            const { score, families } = scoreWith(scoring, r);
            return { score, blockable: blockable(score, families) };
          }),
      );
    };
    const found = fixedPoint<Threshold>(
      (previous) => worstWorld(byWorld(previous).map((w) => guardedThresholdOf(w, ceilings))),
      (t) => byWorld(t).every((w) => meetsCeilings(w, t, ceilings)),
      sameThreshold,
      rounds,
    );
    choice.rounds[type] = { rounds: found.rounds, converged: found.converged };
    choice.thresholds[type] = found.value ?? { ...SAFE_DEFAULT };
    if (!found.value) choice.unmet.push(type);
  }
  return choice;
}
