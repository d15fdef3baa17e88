/** rule_device_fingerprint_reuse: one device used by more than N distinct users or emails. */
import type { Rule } from "../types.ts";

export const deviceReuse: Rule = {
  key: "rule_device_fingerprint_reuse",
  appliesTo: ["event"],
  check(subject, policy, features) {
    if (subject.kind !== "event" || !subject.deviceId || !features.counts) return null;
    const s = policy.settings.rule_device_fingerprint_reuse;
    const users = features.counts.usersOn.device + 1;
    if (users <= s.max_users_per_device) return null;
    return {
      message: `device ${subject.deviceId} used by ${users} different users or emails in ${s.window_days} days (limit ${s.max_users_per_device})`,
      observed: users,
      limit: s.max_users_per_device,
    };
  },
};
