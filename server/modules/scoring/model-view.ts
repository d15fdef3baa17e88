/**
 * A stored weights version (ScoreModel) as the console and the API read it, pure: its weights
 * and backtest parsed, its warnings read from them (model-warnings.ts), and the warnings its
 * adopter confirmed.
 */
import {
  type ScoreModelView,
  WARNING_CODES,
  type WarningCode,
  ZModelMetrics,
} from "../../../shared/schemas/score-models.ts";
import { ZWeights } from "../../../shared/score/weights.ts";
import { DEFAULT_WEIGHTS } from "../../engine/default-weights.ts";
import { warningsOf } from "./model-warnings.ts";
import type { ModelRow } from "./models.repository.ts";

const isWarningCode = (code: string): code is WarningCode =>
  (WARNING_CODES as readonly string[]).includes(code);

/** A stored version as the console shows it; null for one whose weights no longer parse. */
export function viewOf(row: ModelRow | null): ScoreModelView | null {
  if (!row) return null;
  const weights = ZWeights.safeParse(row.weights);
  if (!weights.success) return null;
  const parsed = ZModelMetrics.safeParse(row.metrics);
  const metrics = parsed.success ? parsed.data : null;
  return {
    id: row.id,
    version: row.version,
    status: row.status as ScoreModelView["status"],
    weights: weights.data,
    metrics,
    warnings: warningsOf(weights.data, metrics, DEFAULT_WEIGHTS),
    confirmed_warnings: row.confirmedWarnings.filter(isWarningCode),
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy,
    adopted_at: row.adoptedAt?.toISOString() ?? null,
    adopted_by: row.adoptedBy,
  };
}
