/**
 * rule_ip (One trial per device/IP/email): at trial_start, block when the same device, IP
 * (IPv6 by /64) or normalized email already started a trial (not blocked) in the window.
 */
import type { EventSubject, Rule } from "../types.ts";

export const oneTrial: Rule = {
  key: "rule_ip",
  appliesTo: ["event"],
  check(subject, policy, features) {
    if (subject.kind !== "event" || subject.type !== "trial_start") return null;
    const prior = features.counts?.priorTrials;
    if (!prior) return null;
    const days = policy.settings.rule_ip.window_days;
    const matches: [keyof typeof prior, string | null | undefined][] = [
      ["device", subject.deviceId],
      ["ip", subject.ip],
      ["email", features.normalizedEmail],
    ];
    for (const [identity, value] of matches) {
      if (value && prior[identity] > 0) {
        return {
          message: `a trial was already started from this ${label(identity, subject)} (${value}) in ${days} days`,
          observed: prior[identity] + 1,
          limit: 1,
        };
      }
    }
    return null;
  },
};

function label(identity: "device" | "ip" | "email", subject: EventSubject): string {
  if (identity === "ip") return subject.ip?.includes(":") ? "IPv6 /64" : "IP";
  return identity;
}
