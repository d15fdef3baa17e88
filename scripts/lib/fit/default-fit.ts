/**
 * How the shipped default weights are made (`npm run fit`): the fixed training seeds of the
 * default world, played with every rule on (collect.ts), the L2 strength chosen among a few by
 * log-loss on held-out seeds, the weights fitted on every training event, and the thresholds
 * at the false-positive ceilings. Same seeds, same file: CI refits and compares.
 */
import { SIGNAL_KEYS } from "../../../server/engine/signals.ts";
import type { Weights } from "../../../shared/score/weights.ts";
import type { Play, Row } from "./collect.ts";
import { playAll } from "./pool.ts";
import { CEILINGS, MIN_ORDINARY } from "./thresholds.ts";
import { chooseLambda, fitModel, type LambdaChoice, type Model, thresholdsOf } from "./train.ts";

/** The training traffic. Seeds 22 and 4242 (docs/detection.md's) are kept out for the report. */
export const TRAINING = {
  world: "default",
  seeds: [1, 2, 3, 4, 5, 6, 7, 8],
  events: 2500,
  hours: 1,
} as const;

/** The L2 strengths tried (the penalty is lambda/2 · Σ w², over all events' summed log-loss). */
export const LAMBDAS = [0.1, 0.3, 1, 3, 10] as const;

/** Lambda is chosen over this many folds of the training seeds (train.ts chooseLambda). */
export const FOLDS = 4;

export const trainingPlays = (): Play[] =>
  TRAINING.seeds.map((seed) => ({
    world: TRAINING.world,
    seed,
    events: TRAINING.events,
    hours: TRAINING.hours,
  }));

export type DefaultFit = {
  /** The file's content but its version (weights-file.ts versions it). */
  file: Omit<Weights, "version">;
  model: Model;
  lambda: LambdaChoice;
  rows: Row[];
};

/** Plays the training seeds, `jobs` at a time: every event, seed by seed. */
export async function playTraining(
  jobs?: number,
  progress?: (done: number, total: number) => void,
): Promise<Row[]> {
  return (await playAll(trainingPlays(), jobs, progress)).flat();
}

/** Lambda by held-out log-loss, then the model and thresholds on every training row. */
export function fitDefault(rows: Row[]): DefaultFit {
  const lambda = chooseLambda(rows, LAMBDAS, FOLDS);
  const model = fitModel(rows, lambda.lambda);
  const choice = thresholdsOf(model, rows);
  const seen = new Set(rows.flatMap((r) => Object.keys(r.signals)));
  const file: Omit<Weights, "version"> = {
    fitted: {
      command: "npm run fit",
      world: TRAINING.world,
      seeds: [...TRAINING.seeds],
      events_per_seed: TRAINING.events,
      hours_per_seed: TRAINING.hours,
      configuration:
        "every rule on, no template: the score is computed, no threshold acts (scripts/lib/fit/collect.ts)",
      label: "1 for every event of an attack population, 0 for an ordinary one",
      events: rows.length,
      attack_events: rows.filter((r) => r.attack).length,
      lambda: lambda.lambda,
      lambda_held_out_log_loss: lambda.losses.map((l) => ({
        lambda: l.lambda,
        log_loss: Math.round(l.logLoss * 1e5) / 1e5,
        se: Math.round(l.se * 1e5) / 1e5,
      })),
      lambda_chosen_by: `the largest within one standard error of the lowest mean log-loss on held-out seeds (${FOLDS} folds by seed)`,
      ceilings: {
        ordinary_blocked: CEILINGS.blocked,
        ordinary_reviewed_or_blocked: CEILINGS.flagged,
      },
      ordinary_events_by_type: choice.ordinary,
      no_threshold_below: `${MIN_ORDINARY} ordinary events of a type: ${choice.safeDefault.length > 0 ? choice.safeDefault.join(", ") : "none"}`,
      signals_never_seen: SIGNAL_KEYS.filter((k) => !seen.has(k)),
    },
    intercepts: model.intercepts,
    weights: model.weights,
    thresholds: choice.thresholds,
  };
  return { file, model, lambda, rows };
}
