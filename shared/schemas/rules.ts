/** Rules settings (spec §3): one flag per rule plus the Radar risk threshold. */
import { z } from "zod";
import { RULE_RECORDS, type RuleKey } from "../catalog/rule-records.ts";

/** Every rule, in the order the rules object and its settings list them (rule-records.ts). */
export const RULE_KEYS = Object.keys(RULE_RECORDS) as readonly RuleKey[];

export type { RuleKey };

/** What a reason names: a rule, or the risk score passing a threshold (server/engine/score.ts). */
export const REASON_KEYS = [...RULE_KEYS, "risk_score"] as const;
export type ReasonKey = (typeof REASON_KEYS)[number];

export const THRESHOLD_MIN = 0;
export const THRESHOLD_MAX = 100;
export const DEFAULT_THRESHOLD = 70;

const thresholdMessage = `risk_level_threshold must be a whole number from ${THRESHOLD_MIN} to ${THRESHOLD_MAX}.`;

export const ZRiskThreshold = z
  .number({ message: thresholdMessage })
  .int(thresholdMessage)
  .min(THRESHOLD_MIN, thresholdMessage)
  .max(THRESHOLD_MAX, thresholdMessage);

const flag = z.boolean({ message: "must be true or false" });

/** The whole rules object, as PUT takes it and GET returns it. */
export const ZRules = z.strictObject({
  ...(Object.fromEntries(RULE_KEYS.map((key) => [key, flag])) as Record<RuleKey, typeof flag>),
  risk_level_threshold: ZRiskThreshold,
});

export type Rules = z.infer<typeof ZRules>;

export const DEFAULT_RULES: Rules = {
  ...(Object.fromEntries(RULE_KEYS.map((key) => [key, false])) as Record<RuleKey, boolean>),
  risk_level_threshold: DEFAULT_THRESHOLD,
};

/** Clamps what a person types into the threshold box; null while the box is empty or not a number. */
export function clampThreshold(raw: string | number): number | null {
  if (typeof raw === "string" && raw.trim() === "") return null;
  const value = Number(raw);
  if (!Number.isFinite(value)) return null;
  return Math.min(THRESHOLD_MAX, Math.max(THRESHOLD_MIN, Math.round(value)));
}

/**
 * Merges a stored (or loaded) object over the defaults: unknown keys are dropped, a flag that
 * is not a boolean stays false, and a non-numeric threshold is reset to 70 (spec §5).
 */
export function rulesFromStored(stored: unknown): Rules {
  const source = isRecord(stored) ? stored : {};
  const rules: Rules = { ...DEFAULT_RULES };
  for (const key of RULE_KEYS) {
    if (typeof source[key] === "boolean") rules[key] = source[key];
  }
  const threshold = source.risk_level_threshold;
  const clamped =
    typeof threshold === "number" || typeof threshold === "string"
      ? clampThreshold(threshold)
      : null;
  rules.risk_level_threshold = clamped ?? DEFAULT_THRESHOLD;
  return rules;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
