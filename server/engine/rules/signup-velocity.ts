/**
 * rule_signup_velocity: more than N signups in 1 h from one device, or, on an address that is
 * not a known consumer network's, from one IP, M from its /24 (IPv6 /48) or K from its whole
 * network (a hosting provider's ASN: a farm renting addresses across its ranges moves from
 * /24 to /24, not out of the provider); and a signup from
 * a hosting provider's network with no browser behind it (no collector token, no device id) is
 * reviewed. A home, mobile, office or campus address is shared by whoever is behind its NAT
 * (a carrier's CGNAT by thousands), so there the count is per device: npm run simulate saw
 * per-IP counting block 6% of people on mobile data, offices and campuses. A commercial VPN's
 * users share its hosting network the same way: past the IP, /24 or network limit, a signup
 * whose form a person filled in a browser (input events, not faster than a person, no
 * automation flag) on a device new to signups is reviewed, not blocked (issue 42: a VPN
 * provider's users were blocked from the sixth); without that second kind of evidence the
 * burst is a script's and is blocked.
 */
import { declare, fixed, HOUR } from "../counting.ts";
import type { EventSubject, Features, Finding, Rule } from "../types.ts";
import { ordinal } from "../words.ts";
import { MIN_TIME_TO_SUBMIT_MS } from "./entropy.ts";

/** An address the offline data places at an internet provider that is not a host: shared by its NAT. */
function consumerNetwork(features: Features): boolean {
  const geo = features.geo;
  return !!geo && geo.country !== null && !geo.hosting;
}

/** A person filled this form in a browser: the collector saw their hands, and no automation. */
export function filledByHand(subject: EventSubject, features: Features): boolean {
  const browser = subject.browser;
  const behavior = browser?.behavior;
  if (!browser || !behavior || browser.webdriver || features.bot) return false;
  if (behavior.pointerEvents + behavior.keyEvents === 0) return false;
  return behavior.timeToSubmitMs === null || behavior.timeToSubmitMs >= MIN_TIME_TO_SUBMIT_MS;
}

export const signupsLastHour = declare({
  group: "signupsLastHour",
  kinds: ["ip", "subnet", "network", "device"],
  asks: ["signup"],
  types: ["signup"],
  window: fixed(HOUR),
  measure: "count",
});

export const signupVelocity: Rule = {
  key: "rule_signup_velocity",
  appliesTo: ["event"],
  counts: [signupsLastHour],
  check(subject, policy, features): Finding | null {
    if (subject.kind !== "event" || subject.type !== "signup") return null;
    const counts = signupsLastHour.read(features);
    if (!counts) return null;
    const s = policy.settings.rule_signup_velocity;
    const fromDevice = counts.device + 1;
    if (subject.deviceId && fromDevice > s.per_ip_per_hour) {
      return {
        message: `${ordinal(fromDevice)} signup from device ${subject.deviceId} in 1 h (limit ${s.per_ip_per_hour})`,
        observed: fromDevice,
        limit: s.per_ip_per_hour,
      };
    }
    if (!subject.ip) return null;
    // A person on a VPN (a hosting network's address): reviewed past the limits below, not
    // blocked. An address no data places keeps its limits.
    const person =
      !!features.geo?.hosting &&
      !!subject.deviceId &&
      counts.device === 0 &&
      filledByHand(subject, features);
    const over = (what: string, observed: number, limit: number, how = ""): Finding => ({
      message: `${ordinal(observed)} signup from ${what} in 1 h${how} (limit ${limit})${person ? ": a person's browser filled it (a VPN's users share its network), reviewed" : ""}`,
      observed,
      limit,
      ...(person ? { review: true } : {}),
    });
    if (!consumerNetwork(features)) {
      const fromIp = counts.ip + 1;
      if (fromIp > s.per_ip_per_hour) return over(subject.ip, fromIp, s.per_ip_per_hour);
      const fromSubnet = counts.subnet + 1;
      if (fromSubnet > s.per_subnet_per_hour) {
        const net = subject.ip.includes(":") ? "/48" : "/24";
        return over(`the ${net} of ${subject.ip}`, fromSubnet, s.per_subnet_per_hour);
      }
      const geo = features.geo;
      const fromNetwork = counts.network + 1;
      if (geo?.hosting && fromNetwork > s.per_network_per_hour) {
        return over(
          `hosting network AS${geo.asn}`,
          fromNetwork,
          s.per_network_per_hour,
          ", across its ranges",
        );
      }
    }
    const geo = features.geo;
    if (geo?.hosting && !subject.browser && !subject.deviceId) {
      return {
        message: `signup from a hosting provider's network (AS${geo.asn}, ${subject.ip}) with no browser signals: no collector token and no device id`,
        observed: geo.asn,
        limit: null,
        review: true,
      };
    }
    return null;
  },
};
