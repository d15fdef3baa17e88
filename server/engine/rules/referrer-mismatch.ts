/**
 * rule_referrer_mismatch: block when the origin's or referrer's host is not among the
 * merchant's allowed origins (an empty list: the rule abstains), or when the origin and the
 * url name different hosts.
 */
import type { Rule } from "../types.ts";

function hostOf(value: string | null): string | null {
  if (!value) return null;
  try {
    return new URL(value).host.toLowerCase();
  } catch {
    return null;
  }
}

export const referrerMismatch: Rule = {
  key: "rule_referrer_mismatch",
  appliesTo: ["event"],
  check(subject, policy) {
    if (subject.kind !== "event") return null;
    const allowed = new Set((policy.allowedOrigins ?? []).map((origin) => hostOf(origin)));
    const originHost = hostOf(subject.origin);
    if (allowed.size > 0) {
      for (const [field, host] of [
        ["origin", originHost],
        ["referrer", hostOf(subject.referrer)],
      ] as const) {
        if (host && !allowed.has(host)) {
          return {
            message: `${field} ${host} is not one of your allowed origins`,
            observed: host,
            limit: [...allowed].join(", "),
          };
        }
      }
    }
    const urlHost = hostOf(subject.url);
    if (originHost && urlHost && originHost !== urlHost) {
      return {
        message: `origin ${originHost} does not match the page ${urlHost}`,
        observed: originHost,
        limit: urlHost,
      };
    }
    return null;
  },
};
