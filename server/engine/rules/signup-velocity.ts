/** rule_signup_velocity: more than N signups from one IP, or M from one /24 (IPv6 /48), in 1 h. */
import type { Rule } from "../types.ts";
import { ordinal } from "../words.ts";

export const signupVelocity: Rule = {
  key: "rule_signup_velocity",
  appliesTo: ["event"],
  check(subject, policy, features) {
    if (subject.kind !== "event" || subject.type !== "signup" || !subject.ip) return null;
    const counts = features.counts?.signupsLastHour;
    if (!counts) return null;
    const s = policy.settings.rule_signup_velocity;
    const fromIp = counts.ip + 1;
    if (fromIp > s.per_ip_per_hour) {
      return {
        message: `${ordinal(fromIp)} signup from ${subject.ip} in 1 h (limit ${s.per_ip_per_hour})`,
        observed: fromIp,
        limit: s.per_ip_per_hour,
      };
    }
    const fromSubnet = counts.subnet + 1;
    if (fromSubnet > s.per_subnet_per_hour) {
      const net = subject.ip.includes(":") ? "/48" : "/24";
      return {
        message: `${ordinal(fromSubnet)} signup from the ${net} of ${subject.ip} in 1 h (limit ${s.per_subnet_per_hour})`,
        observed: fromSubnet,
        limit: s.per_subnet_per_hour,
      };
    }
    return null;
  },
};
