/**
 * rule_entropy (behavioral entropy score): review an email whose local part looks random.
 * With the browser collector's signals it will also judge how the form was filled.
 */
import type { Rule } from "../types.ts";

export const entropy: Rule = {
  key: "rule_entropy",
  appliesTo: ["event"],
  check(subject, _policy, features) {
    if (subject.kind !== "event" || !subject.email) return null;
    const randomness = features.emailRandomness;
    if (!randomness?.random) return null;
    const local = subject.email.slice(0, subject.email.lastIndexOf("@"));
    return {
      message: `email ${local}@… looks randomly generated (score ${randomness.score.toFixed(2)})`,
      observed: Number(randomness.score.toFixed(2)),
      limit: null,
    };
  },
};
