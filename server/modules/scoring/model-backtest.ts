/**
 * A proposal's fit and backtest, pure: weights fitted on a merchant's labelled screenings,
 * regularized toward the weights in force, judged by k-fold cross-validation (each labelled
 * screening is scored by weights fitted on the other folds, so a proposal is never judged on
 * the labels it learnt), and the weights in force judged on the same screenings, both at the
 * thresholds in force. A screening is stopped when its rules or its rescored risk score block
 * or review it, as a live screening would be; an allow-list entry lets it through.
 *
 * The event types' intercepts stay those in force: a merchant labels reviewed and blocked
 * events far more often than allowed ones, so the share of fraud among its labels says nothing
 * about how common fraud is. The fit gives the intercepts their own (near-free) values for the
 * labelled sample, which keeps the signals' weights unbiased by that sampling, and then drops
 * them. The thresholds stay those of the weights in force too (a merchant moves its own on
 * the Risk score page, with their own preview).
 */
import type {
  LabelledOutcome,
  Outcome,
  WeightChange,
} from "../../../shared/schemas/score-models.ts";
import type { Thresholds, Weights } from "../../../shared/score/weights.ts";
import { type Example, fitLogistic } from "../../engine/fit.ts";
import { POINTS_PER_LOG_ODDS, scoreAction, scoreOf } from "../../engine/score.ts";
import { SIGNAL_KEYS, type Signal, type SignalKey } from "../../engine/signals.ts";
import type { Aggregate, FeatureRow } from "./training-set.ts";

/**
 * The pull toward the weights in force, in absolute terms (so more labels outweigh it). For a
 * signal present on a share f of n labels, the fit moves its weight about
 * n·f·p(1−p) / (n·f·p(1−p) + λ) of the way to what the labels alone say. Measured
 * (model-backtest.test.ts, a signal whose true weight is 2 log-odds above the prior, present
 * on a third of the labels, 20 draws): 100 labels move it 0.50 (a quarter of the 2.04 the
 * labels alone say), 1,000 labels 1.50 (three quarters), 10,000 labels 1.93 (96 %). So a
 * merchant's first hundred labels nudge the score; its thousands decide it.
 */
export const LAMBDA = 10;

type Action = "block" | "review" | null;

/** What a screening would get: its rules' action, or its score's at the thresholds. */
export function actionOf(
  row: Pick<FeatureRow, "type" | "x" | "rule">,
  weights: Weights,
  thresholds: Thresholds,
): Action {
  if (row.rule === "allow") return null;
  const signals = Object.entries(row.x).map(
    ([signal, value]): Signal => ({ signal: signal as SignalKey, value, detail: "" }),
  );
  const threshold = thresholds[row.type as keyof Thresholds];
  const { score, families } = scoreOf(row.type as never, signals, weights, threshold);
  const byScore = scoreAction(score, threshold, families.length);
  if (row.rule === "block" || byScore === "block") return "block";
  if (row.rule === "review" || byScore === "review") return "review";
  return null;
}

export const emptyOutcome = (): Outcome => ({ blocked: 0, reviewed: 0 });
const emptyLabelled = (): LabelledOutcome => ({
  fraud: emptyOutcome(),
  legitimate: emptyOutcome(),
});

/** Adds `count` screenings that got `action` to an outcome. */
export function count(into: Outcome, action: Action, n = 1): void {
  if (action === "block") into.blocked += n;
  else if (action === "review") into.reviewed += n;
}

/** The weights in force with the fitted signals' weights (rounded): intercepts and thresholds kept. */
export function withFitted(
  prior: Weights,
  fitted: Record<string, number>,
  meta: Pick<Weights, "version" | "fitted">,
): Weights {
  const weights = { ...prior.weights };
  for (const [key, w] of Object.entries(fitted)) weights[key] = Math.round(w * 10_000) / 10_000;
  return { ...meta, intercepts: { ...prior.intercepts }, weights, thresholds: prior.thresholds };
}

/** Every weight that moved by a tenth of a point per unit or more, the largest move first. */
export function weightChanges(before: Weights, after: Weights): WeightChange[] {
  const points = (w: number | undefined) => Math.round((w ?? 0) * POINTS_PER_LOG_ODDS * 10) / 10;
  return SIGNAL_KEYS.map((signal) => ({
    signal,
    from: points(before.weights[signal]),
    to: points(after.weights[signal]),
  }))
    .filter((c) => Math.abs(c.to - c.from) >= 0.1)
    .sort((a, b) => Math.abs(b.to - b.from) - Math.abs(a.to - a.from));
}

export type FitOptions = {
  prior: Weights;
  thresholds: Thresholds;
  folds: number;
  lambda?: number;
  meta: Pick<Weights, "version" | "fitted">;
};

export type Proposal = {
  weights: Weights;
  labelled: { current: LabelledOutcome; proposed: LabelledOutcome };
};

function fitOn(rows: readonly Aggregate[], { prior, lambda = LAMBDA, meta }: FitOptions): Weights {
  const examples: Example[] = rows.map((r) => ({ group: r.type, x: r.x, y: r.y, weight: r.count }));
  // Intercepts start at even odds, near a labelled sample's own (the prior's are the whole
  // traffic's, far lower), and are dropped after.
  const fitted = fitLogistic(examples, {
    keys: SIGNAL_KEYS,
    lambda,
    prior: { weights: prior.weights },
  });
  const weights = Object.values(fitted.weights);
  if (!weights.every(Number.isFinite)) throw new Error("the fit did not converge");
  return withFitted(prior, fitted.weights, meta);
}

/** The proposed weights (fitted on every row) and the cross-validated backtest against the prior. */
export function propose(rows: readonly Aggregate[], options: FitOptions): Proposal {
  const { prior, thresholds, folds } = options;
  const current = emptyLabelled();
  const proposed = emptyLabelled();
  const side = (outcome: LabelledOutcome, y: 0 | 1) =>
    y === 1 ? outcome.fraud : outcome.legitimate;
  for (const row of rows) count(side(current, row.y), actionOf(row, prior, thresholds), row.count);
  for (let fold = 0; fold < folds; fold++) {
    const held = rows.filter((r) => r.fold === fold);
    if (held.length === 0) continue;
    const weights = fitOn(
      rows.filter((r) => r.fold !== fold),
      options,
    );
    for (const row of held)
      count(side(proposed, row.y), actionOf(row, weights, thresholds), row.count);
  }
  return { weights: fitOn(rows, options), labelled: { current, proposed } };
}
