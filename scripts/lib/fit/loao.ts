/**
 * Leave one attack out, for the weights (pure): weights fitted on every attack catch those
 * attacks; the question is how they do on one they never saw. For each attack, the weights are
 * refitted on the training events without that attack's, the thresholds read again at the
 * ceilings, and the left-out attack's payoff events on the held-out seeds judged under them,
 * beside the same events under the weights fitted with it in.
 */
import type { Thresholds } from "../../../shared/score/weights.ts";
import type { Row } from "./collect.ts";
import { type Figures, figuresOf, judge } from "./evaluate.ts";
import { fitModel, type Model, thresholdsOf } from "./train.ts";

export type LoaoRow = {
  attack: string;
  /** The attack's payoff events on the held-out seeds. */
  payoff: number;
  /** Recall, score alone and score with the rules, with the attack in the training data. */
  in: { score: number; both: number };
  /** The same with the attack left out of the training data. */
  out: { score: number; both: number };
  /** What the weights without it cost ordinary events on the held-out seeds (score alone). */
  ordinary: Figures["ordinary"];
};

const recallOf = (figures: Figures, attack: string) => {
  const t = figures.attacks.find((a) => a.population === attack);
  return t && t.events > 0 ? (t.blocked + t.reviewed) / t.events : 0;
};

export function leaveOneAttackOut(
  training: readonly Row[],
  heldOut: readonly Row[],
  lambda: number,
  full: { model: Model; thresholds: Thresholds },
): LoaoRow[] {
  const attacks = [...new Set(training.filter((r) => r.attack).map((r) => r.population))].sort();
  const judgedIn = judge(heldOut, full.model, full.thresholds);
  const inScore = figuresOf(judgedIn, "score");
  const inBoth = figuresOf(judgedIn, "both");
  return attacks.map((attack) => {
    const rest = training.filter((r) => r.population !== attack);
    const model = fitModel(rest, lambda);
    const { thresholds } = thresholdsOf(model, rest);
    const judged = judge(heldOut, model, thresholds);
    const score = figuresOf(judged, "score");
    const both = figuresOf(judged, "both");
    return {
      attack,
      payoff: score.attacks.find((a) => a.population === attack)?.events ?? 0,
      in: { score: recallOf(inScore, attack), both: recallOf(inBoth, attack) },
      out: { score: recallOf(score, attack), both: recallOf(both, attack) },
      ordinary: score.ordinary,
    };
  });
}
