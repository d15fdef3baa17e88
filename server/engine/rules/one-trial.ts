/**
 * rule_ip (One trial per device/IP/email): at trial_start, block when another account already
 * started a trial (not blocked) from the same device or the same normalized email (gmail dots
 * and +tags folded) in the window. The same user id starting again is a retry (a double
 * click, a reload), not a second trial. An IP address alone never blocks: a mobile carrier's
 * CGNAT, an office or a campus puts hundreds of people behind one address (npm run simulate:
 * per-IP counting blocked a third of a university's and an onboarding office's trials).
 */
import type { Rule } from "../types.ts";

export const oneTrial: Rule = {
  key: "rule_ip",
  appliesTo: ["event"],
  check(subject, policy, features) {
    if (subject.kind !== "event" || subject.type !== "trial_start") return null;
    const prior = features.counts?.priorTrials;
    if (!prior) return null;
    const days = policy.settings.rule_ip.window_days;
    const matches = [
      ["device", subject.deviceId],
      ["email", features.normalizedEmail],
    ] as const;
    for (const [identity, value] of matches) {
      if (value && prior[identity] > 0) {
        const others = prior[identity];
        return {
          message: `a trial was already started from this ${identity} (${value}) in ${days} days: ${others} other account${others === 1 ? "" : "s"} (limit: one trial per ${identity})`,
          observed: others + 1,
          limit: 1,
        };
      }
    }
    return null;
  },
};
