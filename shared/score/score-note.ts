/**
 * Why a risk score did not act, in one sentence for the answer (`score_note`) and the
 * console's Screenings detail: "score 100, not acted on: no threshold for signups; set one or
 * turn on a template".
 *
 * The rule: the score did not act (no `risk_score` reason, live or overridden by the allow
 * list), it is at or above the level Warden would act at for the event type (the lower of the
 * weights' shipped review and block thresholds, what a template applies), and no threshold is
 * in force for the type. A score under that level says nothing (a low score is not news), nor
 * does one under the merchant's own threshold (they chose it), nor a type with no shipped
 * level (promo_redemption). The console also reads stored screenings against the thresholds in
 * force now: one that would act now but did not then says so ("… when it was screened").
 */
import type { ThresholdsView } from "../schemas/score-thresholds.ts";
import type { ScreenType } from "../schemas/screen-types.ts";
import type { Threshold } from "./weights.ts";

/** Each event type in the plural, as a sentence names them ("no threshold for signups"). */
export const TYPE_PLURALS: Record<ScreenType, string> = {
  signup: "signups",
  login: "logins",
  trial_start: "trial starts",
  promo_redemption: "promo redemptions",
  referral: "referrals",
  checkout: "checkouts",
  request: "requests",
};

export type ScoreNoteInput = {
  type: ScreenType;
  score: number;
  /** A `risk_score` reason came with it (in reasons, or monitored under an allow-list entry). */
  acted: boolean;
  /** The threshold in force for the type (own, or a template's default); none: undefined. */
  inForce: Threshold | null | undefined;
  /** The weights' shipped threshold for the type (what a template would apply). */
  shipped: Threshold | null | undefined;
};

/** The lowest score a threshold acts at (review, else block); null when it acts at none. */
export function actingLevel(threshold: Threshold | null | undefined): number | null {
  if (!threshold) return null;
  const levels = [threshold.review, threshold.block].filter((n): n is number => n !== null);
  return levels.length === 0 ? null : Math.min(...levels);
}

/** The sentence, or null when the score acted or had nothing to say. */
export function scoreNote({ type, score, acted, inForce, shipped }: ScoreNoteInput): string | null {
  if (acted) return null;
  const now = actingLevel(inForce);
  if (now !== null) {
    return score >= now
      ? `score ${score}, not acted on when it was screened; ${TYPE_PLURALS[type]} have a threshold now (${now})`
      : null;
  }
  const level = actingLevel(shipped);
  if (level === null || score < level) return null;
  return `score ${score}, not acted on: no threshold for ${TYPE_PLURALS[type]}; set one or turn on a template`;
}

/** A stored screening as the note reads it (a Screenings row, a review card, a REST detail). */
export type StoredScreening = {
  type: ScreenType;
  score: number;
  reasons: readonly { rule: string }[];
  monitored?: readonly { rule: string }[];
  contributions: readonly unknown[];
};

/**
 * The note of a stored screening, read against the thresholds in force now (`scoreThresholds.get`):
 * null when it was not scored (stored before the score), the score acted, or nothing applies.
 * `unset`: the type still has no threshold (then a reader is shown where to set one).
 */
export function storedScoreNote(
  row: StoredScreening,
  view: Pick<ThresholdsView, "types" | "weights">,
): { text: string; unset: boolean } | null {
  if (row.contributions.length === 0) return null;
  const acted = [...row.reasons, ...(row.monitored ?? [])].some((r) => r.rule === "risk_score");
  const inForce = view.types.find((t) => t.type === row.type)?.in_force;
  const text = scoreNote({
    type: row.type,
    score: row.score,
    acted,
    inForce,
    shipped: view.weights.thresholds[row.type],
  });
  return text ? { text, unset: !inForce } : null;
}
