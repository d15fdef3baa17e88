/** rule_efw: Stripe sent an actionable early fraud warning for the charge. */
import type { ChargeSubject, Rule } from "../types.ts";

export const earlyFraudWarning: Rule<ChargeSubject> = {
  key: "rule_efw",
  action: "block",
  appliesTo: ["charge"],
  check(subject) {
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
