/** rule_device_fingerprint_reuse: one device used by more than N distinct users or emails. */
import { declare, recordWindow } from "../counting.ts";
import type { Rule } from "../types.ts";

export const usersOnDevice = declare({
  group: "usersOn",
  kinds: ["device"],
  window: recordWindow("rule_device_fingerprint_reuse", "users"),
  measure: "distinctSubject",
  except: "subject",
});

export const deviceReuse: Rule = {
  key: "rule_device_fingerprint_reuse",
  appliesTo: ["event"],
  counts: [usersOnDevice],
  check(subject, policy, features) {
    const on = usersOnDevice.read(features);
    if (subject.kind !== "event" || !subject.deviceId || !on) return null;
    const s = policy.settings.rule_device_fingerprint_reuse;
    const users = on.device + 1;
    if (users <= s.max_users_per_device) return null;
    return {
      message: `device ${subject.deviceId} used by ${users} different users or emails in ${s.window_days} days (limit ${s.max_users_per_device})`,
      observed: users,
      limit: s.max_users_per_device,
    };
  },
};
