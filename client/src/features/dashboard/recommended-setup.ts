/**
 * The recommended set-up a new account turns on from the Dashboard's Getting started card:
 * the risk score acts at the thresholds the weights ship with, for every event type that has
 * them, and the One Human One Trial template is on. Offered while no event type has a
 * threshold in force (nothing acts on the score yet).
 */
import { TEMPLATE_CATALOG } from "../../../../shared/catalog/templates.ts";
import type { ThresholdsView } from "../../../../shared/schemas/score-thresholds.ts";
import { SCREEN_TYPES } from "../../../../shared/schemas/screening.ts";
import type { TemplateKey, Templates } from "../../../../shared/schemas/templates.ts";
import { actingLevel, TYPE_PLURALS } from "../../../../shared/score/score-note.ts";
import type { Thresholds } from "../../../../shared/score/weights.ts";

export const RECOMMENDED_TEMPLATE: TemplateKey = "template_one_human_one_trial";

/** Whether to offer it: no event type's score is acted on yet. */
export function needsSetup(view: ThresholdsView): boolean {
  return view.types.every((t) => t.in_force === null);
}

/** The own thresholds it saves: the weights' shipped ones, over any the merchant set already. */
export function recommendedThresholds(view: ThresholdsView): Thresholds {
  const out: Thresholds = {};
  for (const type of SCREEN_TYPES) {
    const own = view.own[type];
    const chosen = actingLevel(own) !== null ? own : view.weights.thresholds[type];
    if (chosen && actingLevel(chosen) !== null) out[type] = chosen;
  }
  return out;
}

/** The templates object it saves: the account's own, with the recommended one on. */
export function recommendedTemplates(current: Templates): Templates {
  return { ...current, [RECOMMENDED_TEMPLATE]: true };
}

/** "signups: review from 92, block from 92", one per event type it acts on. */
export function thresholdLines(thresholds: Thresholds): string[] {
  return SCREEN_TYPES.flatMap((type) => {
    const t = thresholds[type];
    if (!t) return [];
    const parts = [
      t.review !== null ? `review from ${t.review}` : null,
      t.block !== null ? `block from ${t.block}` : null,
    ].filter((part) => part !== null);
    return parts.length > 0 ? [`${TYPE_PLURALS[type]}: ${parts.join(", ")}`] : [];
  });
}

/** The recommended template as the card names it: its label and what it does. */
export function templateLine(): { label: string; description: string } {
  const entry = TEMPLATE_CATALOG.find((t) => t.key === RECOMMENDED_TEMPLATE);
  return { label: entry?.label ?? RECOMMENDED_TEMPLATE, description: entry?.description ?? "" };
}
