/**
 * rule_scraping: more than N `request` events a minute from one IP or device → block; a
 * user agent that isbot recognises, or none at all, or a collector request whose headers
 * contradict its user agent (request-consistency.ts) → review; and (when asked) an IP of a
 * hosting provider → review, if nothing shows a browser (no device id, no collector signals)
 * or its requests come at a machine's pace (over N/6 a minute). A person on a commercial VPN
 * browses from a hosting network too (npm run simulate: every VPN user was reviewed).
 */
import { declare, fixed, MINUTE } from "../counting.ts";
import { requestInconsistency } from "../request-consistency.ts";
import type { Rule } from "../types.ts";
import { ordinal } from "../words.ts";

/** From a hosting network, a sixth of the per-minute limit (10 at 60) is already a machine's pace. */
export const HOSTING_PACE_DIVISOR = 6;
/** From one browser (device id) anywhere, a sixth of the limit is a crawler's pace too. */
export const DEVICE_PACE_DIVISOR = 6;

export const requestsLastMinute = declare({
  group: "requestsLastMinute",
  kinds: ["ip", "device"],
  asks: ["request"],
  types: ["request"],
  window: fixed(MINUTE),
  measure: "count",
});

export const scraping: Rule = {
  key: "rule_scraping",
  appliesTo: ["event"],
  counts: [requestsLastMinute],
  check(subject, policy, features) {
    if (subject.kind !== "event") return null;
    const settings = policy.settings.rule_scraping;
    const limit = settings.requests_per_minute;
    const recent = requestsLastMinute.read(features);
    if (subject.type === "request" && recent) {
      for (const identity of ["ip", "device"] as const) {
        const value = identity === "ip" ? subject.ip : subject.deviceId;
        const nth = recent[identity] + 1;
        if (value && nth > limit) {
          return {
            message: `${ordinal(nth)} request from ${identity === "ip" ? "" : "device "}${value} in 1 min (limit ${limit})`,
            observed: nth,
            limit,
          };
        }
      }
    }
    if (settings.review_bots && (!subject.userAgent || features.bot)) {
      return {
        message: subject.userAgent
          ? `user agent is a known bot (isbot's list): ${subject.userAgent.slice(0, 60)}`
          : "no user agent: browsers always send one",
        observed: subject.userAgent ?? null,
        limit: null,
        review: true,
      };
    }
    // The collector's own request contradicting itself is a bot's too (a stealth browser's).
    const request = subject.browser?.request;
    const inconsistent = settings.review_bots && request ? requestInconsistency(request) : null;
    if (inconsistent) return inconsistent;
    if (settings.review_hosting && features.geo?.hosting) {
      const hosting = `IP ${subject.ip} belongs to a hosting provider (AS${features.geo.asn}) on Warden's list of hosting networks`;
      // People use VPNs on hosting networks too: what gives a machine away is no browser
      // (no device id, no collector signals) or a pace no reader keeps.
      const paceLimit = Math.max(1, Math.floor(limit / HOSTING_PACE_DIVISOR));
      const pace = recent ? Math.max(recent.ip, recent.device) + 1 : 0;
      if (subject.type === "request" && subject.deviceId && pace > paceLimit) {
        return {
          message: `${hosting}, and ${pace} requests from it in 1 min (limit ${paceLimit} from a hosting network)`,
          observed: pace,
          limit: paceLimit,
          review: true,
        };
      }
      if (!subject.deviceId && !subject.browser) {
        return {
          message: `${hosting}, with no browser signals (no device id, no collector token)`,
          observed: features.geo.asn,
          limit: null,
          review: true,
        };
      }
    }
    // A reader opens a few pages a minute: a browser at a sixth of the limit (10 at 60)
    // is a crawler with a real browser's face (stealth plugins, residential proxies).
    const devicePace = Math.max(1, Math.floor(limit / DEVICE_PACE_DIVISOR));
    if (
      subject.type === "request" &&
      subject.deviceId &&
      recent &&
      recent.device + 1 > devicePace
    ) {
      return {
        message: `${ordinal(recent.device + 1)} page from device ${subject.deviceId} in 1 min: a crawler's pace (limit ${devicePace} for one browser; a reader opens a few)`,
        observed: recent.device + 1,
        limit: devicePace,
        review: true,
      };
    }
    return null;
  },
};
