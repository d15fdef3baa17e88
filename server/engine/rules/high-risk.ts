/** rule_high_risk: Radar's risk score above the merchant's threshold (charges). */
import type { Rule } from "../types.ts";

export const highRisk: Rule = {
  key: "rule_high_risk",
  appliesTo: ["charge"],
  check(subject, policy) {
    if (subject.kind !== "charge") return null;
    const score = subject.riskScore;
    const limit = policy.rules.risk_level_threshold;
    if (score === null) return null;
    if (score > limit) {
      return { message: `risk score ${score} above threshold ${limit}`, observed: score, limit };
    }
    // Threshold 0 is "most strict": it blocks every charge that has a score, 0 included.
    if (limit === 0) {
      return {
        message: `risk score ${score} with threshold 0 (the strictest: every scored charge is blocked)`,
        observed: score,
        limit,
      };
    }
    return null;
  },
};
