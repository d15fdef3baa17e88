/**
 * rule_scraping: more than N `request` events a minute from one IP or device → block; a
 * user agent that isbot recognises, or none at all, and (when asked) an IP of a hosting
 * provider → review.
 */
import type { Rule } from "../types.ts";
import { ordinal } from "../words.ts";

export const scraping: Rule = {
  key: "rule_scraping",
  appliesTo: ["event"],
  check(subject, policy, features) {
    if (subject.kind !== "event") return null;
    const settings = policy.settings.rule_scraping;
    const limit = settings.requests_per_minute;
    const recent = features.counts?.requestsLastMinute;
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
    if (settings.review_hosting && features.geo?.hosting) {
      return {
        message: `IP ${subject.ip} belongs to a hosting provider (AS${features.geo.asn}) on Warden's list of hosting networks`,
        observed: features.geo.asn,
        limit: null,
        review: true,
      };
    }
    return null;
  },
};
