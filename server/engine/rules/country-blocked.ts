/**
 * rule_country_blocked: a blocked country. For a charge, the card's or billing address's
 * country; for a screened event, the country of its IP address.
 */
import type { Rule } from "../types.ts";

export const countryBlocked: Rule = {
  key: "rule_country_blocked",
  appliesTo: ["charge", "event"],
  check(subject, policy, features) {
    const blocked = new Set(policy.blocklist.countries);
    const candidates =
      subject.kind === "charge"
        ? ([
            ["card", subject.cardCountry],
            ["billing", subject.billingCountry],
          ] as const)
        : ([[`IP ${subject.ip}`, features.geo?.country ?? null]] as const);
    for (const [which, raw] of candidates) {
      const country = raw?.toUpperCase();
      if (country && blocked.has(country)) {
        return {
          message: `${which} country ${country} is blocked`,
          observed: country,
          limit: null,
        };
      }
    }
    return null;
  },
};
