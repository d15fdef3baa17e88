/** rule_country_blocked: the card's or billing address's country is on the block list. */
import type { ChargeSubject, Rule } from "../types.ts";

export const countryBlocked: Rule<ChargeSubject> = {
  key: "rule_country_blocked",
  action: "block",
  appliesTo: ["charge"],
  check(subject, policy) {
    const blocked = new Set(policy.blocklist.countries);
    const candidates = [
      ["card", subject.cardCountry],
      ["billing", subject.billingCountry],
    ] as const;
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
