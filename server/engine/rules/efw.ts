/** rule_efw: Stripe sent an actionable early fraud warning for the charge. */
import type { Rule } from "../types.ts";

export const earlyFraudWarning: Rule = {
  key: "rule_efw",
  appliesTo: ["charge"],
  check(subject) {
    if (subject.kind !== "charge") return null;
    const warning = subject.earlyFraudWarning;
    if (!warning?.actionable) return null;
    const fraudType = warning.fraudType ?? "unspecified";
    return {
      message: `actionable early fraud warning (${fraudType})`,
      observed: fraudType,
      limit: null,
    };
  },
};
