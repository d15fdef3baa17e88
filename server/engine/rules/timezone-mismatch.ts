/** rule_timezone_mismatch: the browser's timezone is not one of the IP country's timezones. */
import type { Rule } from "../types.ts";

export const timezoneMismatch: Rule = {
  key: "rule_timezone_mismatch",
  appliesTo: ["event"],
  check(subject, _policy, features) {
    if (subject.kind !== "event" || !subject.timezone || !subject.ip) return null;
    if (features.timezoneFitsCountry !== false) return null;
    const country = features.geo?.country ?? "?";
    return {
      message: `browser timezone ${subject.timezone} is not a timezone of ${country}, the IP's country`,
      observed: subject.timezone,
      limit: country,
    };
  },
};
