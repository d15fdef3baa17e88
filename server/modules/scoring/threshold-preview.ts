/**
 * What thresholds would have done to past screenings, from their stored score and the rules'
 * own reasons (pure: the repository counts the screenings by type, score, what the rules said
 * and label; this tallies the counts). A screening's decision under a set of thresholds is
 * the rules' own action combined with the threshold's: block wins over review, review over
 * allow, as the engine combines them; one an allow-list entry decided stays allowed. A score
 * held at review (fewer than two families of evidence, decision 030) stays held under any
 * thresholds. One that was not held is read as it is: under lower thresholds, a score on one
 * family that never reached block may show as blocked where the engine would hold it, so the
 * preview errs toward blocks.
 */

import type {
  PreviewCounts,
  PreviewOutcome,
  ThresholdPreview,
} from "../../../shared/schemas/score-thresholds.ts";
import type { ScreenType } from "../../../shared/schemas/screening.ts";
import { SCREEN_TYPES } from "../../../shared/schemas/screening.ts";
import type { Thresholds } from "../../../shared/score/weights.ts";
import { scoreAction } from "../../engine/score.ts";

/** What the rules' own reasons (risk_score left out) decided; "allowed": an allow-list entry. */
export type RulesVerdict = "block" | "review" | "none" | "allowed";
/** What a screening turned out to be: its newest label, else its review (denied: fraud). */
export type Truth = "fraud" | "legitimate" | null;

/** Scored screenings of one type and score with the same rules' verdict and truth. */
export type PreviewGroup = {
  type: ScreenType;
  score: number;
  rules: RulesVerdict;
  truth: Truth;
  /** Held at review on fewer than two families of evidence when it was screened. */
  held?: boolean;
  count: number;
};

/** A screening's decision under `thresholds`. */
export function decisionUnder(
  group: Pick<PreviewGroup, "type" | "score" | "rules" | "held">,
  thresholds: Thresholds,
): "allow" | "review" | "block" {
  if (group.rules === "allowed") return "allow";
  if (group.rules === "block") return "block";
  const byScore = scoreAction(group.score, thresholds[group.type], group.held ? 1 : undefined);
  if (byScore) return byScore;
  return group.rules === "review" ? "review" : "allow";
}

const emptyOutcome = (): PreviewOutcome => ({
  blocked: 0,
  reviewed: 0,
  fraud_blocked: 0,
  fraud_reviewed: 0,
  legitimate_blocked: 0,
  legitimate_reviewed: 0,
});

const emptyCounts = (): PreviewCounts => ({
  screenings: 0,
  fraud: 0,
  legitimate: 0,
  now: emptyOutcome(),
  proposed: emptyOutcome(),
});

function addTo(outcome: PreviewOutcome, decision: string, truth: Truth, count: number) {
  if (decision === "allow") return;
  const stopped = decision === "block" ? "blocked" : "reviewed";
  outcome[stopped] += count;
  if (truth) outcome[`${truth}_${stopped}`] += count;
}

function add(counts: PreviewCounts, group: PreviewGroup, now: Thresholds, proposed: Thresholds) {
  counts.screenings += group.count;
  if (group.truth) counts[group.truth] += group.count;
  addTo(counts.now, decisionUnder(group, now), group.truth, group.count);
  addTo(counts.proposed, decisionUnder(group, proposed), group.truth, group.count);
}

/** The preview's counts, per event type (every type, in order) and in all. */
export function tallyPreview(
  groups: readonly PreviewGroup[],
  now: Thresholds,
  proposed: Thresholds,
): Pick<ThresholdPreview, "total" | "types"> {
  const total = emptyCounts();
  const byType = new Map(SCREEN_TYPES.map((type) => [type, emptyCounts()]));
  for (const group of groups) {
    const counts = byType.get(group.type);
    if (!counts) continue;
    add(counts, group, now, proposed);
    add(total, group, now, proposed);
  }
  return {
    total,
    types: SCREEN_TYPES.map((type) => ({
      type,
      ...(byType.get(type) ?? emptyCounts()),
      now_threshold: now[type] ?? null,
      proposed_threshold: proposed[type] ?? null,
    })),
  };
}
