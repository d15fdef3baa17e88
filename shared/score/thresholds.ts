/**
 * The review and block thresholds in force for each event type: the merchant's own where set,
 * else the weights' defaults for the types a template that is on judges (TEMPLATE_CATALOG
 * scoreTypes), else none (the score is shown, never acted on).
 */
import { TEMPLATE_CATALOG } from "../catalog/templates.ts";
import { SCREEN_TYPES } from "../schemas/screening.ts";
import type { Templates } from "../schemas/templates.ts";
import type { Thresholds } from "./weights.ts";

export function thresholdsInForce(
  templates: Templates,
  own: Thresholds,
  defaults: Thresholds,
): Thresholds {
  const judged = new Set(
    TEMPLATE_CATALOG.filter((t) => templates[t.key]).flatMap((t) => t.scoreTypes),
  );
  const out: Thresholds = {};
  for (const type of SCREEN_TYPES) {
    const threshold = own[type] ?? (judged.has(type) ? defaults[type] : undefined);
    if (threshold && (threshold.review !== null || threshold.block !== null)) out[type] = threshold;
  }
  return out;
}
