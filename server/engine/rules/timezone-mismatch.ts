/**
 * rule_timezone_mismatch: the browser's timezone is not one of the IP country's timezones.
 * Abstains on the networks of corporate security gateways, privacy relays and hosting
 * providers (VPN exits), whose country is chosen by the company, the relay or the person, not
 * where the person is (npm run simulate: a Zscaler exit in the US put every employee abroad
 * under review, and a fifth of VPN users' events were reviewed). It can be limited to some
 * event types: One Human One Trial judges trial starts only.
 */
import type { Rule } from "../types.ts";

/** Corporate secure-web gateways and privacy relays (ASNs as in @ip-location-db/asn). */
export const RELAY_NETWORKS: ReadonlyMap<number, string> = new Map([
  [22616, "Zscaler"],
  [53813, "Zscaler"],
  [62044, "Zscaler"],
  [55256, "Netskope"],
  [13335, "Cloudflare (WARP, Zero Trust)"],
  [36183, "Akamai (iCloud Private Relay)"],
  [20940, "Akamai (iCloud Private Relay)"],
]);

export const timezoneMismatch: Rule = {
  key: "rule_timezone_mismatch",
  appliesTo: ["event"],
  check(subject, policy, features) {
    if (subject.kind !== "event" || !subject.timezone || !subject.ip) return null;
    const types = policy.settings.rule_timezone_mismatch.event_types;
    if (types && !types.includes(subject.type)) return null;
    if (features.timezoneFitsCountry !== false) return null;
    // A hosting network's country is where the server is (a VPN exit the person picked).
    const asn = features.geo?.asn ?? null;
    if (features.geo?.hosting || (asn !== null && RELAY_NETWORKS.has(asn))) return null;
    const country = features.geo?.country ?? "?";
    return {
      message: `browser timezone ${subject.timezone} is not a timezone of ${country}, the IP's country`,
      observed: subject.timezone,
      limit: country,
    };
  },
};
