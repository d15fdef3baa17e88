/**
 * rule_promo_velocity: one promo code redeemed more than N times in 10 min across all users,
 * or more than M redemptions in 1 h from one device, or from one IP that is not a known
 * consumer network's (a carrier's CGNAT or an office shares one address among many people).
 */
import { declare, fixed, HOUR, MINUTE } from "../counting.ts";
import type { Rule } from "../types.ts";
import { ordinal } from "../words.ts";

export const ofCode = declare({
  group: "promoCodeLast10Minutes",
  kinds: ["promo"],
  asks: ["promo_redemption"],
  types: ["promo_redemption"],
  window: fixed(10 * MINUTE),
  measure: "count",
});
export const fromSource = declare({
  group: "promoLastHour",
  kinds: ["ip", "device"],
  asks: ["promo_redemption"],
  types: ["promo_redemption"],
  window: fixed(HOUR),
  measure: "count",
});

export const promoVelocity: Rule = {
  key: "rule_promo_velocity",
  appliesTo: ["event"],
  counts: [ofCode, fromSource],
  check(subject, policy, features) {
    if (subject.kind !== "event" || subject.type !== "promo_redemption") return null;
    const code = ofCode.read(features);
    const source = fromSource.read(features);
    if (!code || !source) return null;
    const s = policy.settings.rule_promo_velocity;
    const nthOfCode = code.promo + 1;
    if (subject.promoCode && nthOfCode > s.per_code_per_10_minutes) {
      return {
        message: `${ordinal(nthOfCode)} redemption of ${subject.promoCode} in 10 min (limit ${s.per_code_per_10_minutes})`,
        observed: nthOfCode,
        limit: s.per_code_per_10_minutes,
      };
    }
    const limit = s.per_ip_or_device_per_hour;
    const geo = features.geo;
    const sharedAddress = !!geo && geo.country !== null && !geo.hosting;
    const sources = [
      [sharedAddress ? null : subject.ip, source.ip + 1],
      [subject.deviceId && `device ${subject.deviceId}`, source.device + 1],
    ] as const;
    for (const [source, nth] of sources) {
      if (source && nth > limit) {
        return {
          message: `${ordinal(nth)} promo redemption from ${source} in 1 h (limit ${limit})`,
          observed: nth,
          limit,
        };
      }
    }
    return null;
  },
};
