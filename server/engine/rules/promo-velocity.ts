/**
 * rule_promo_velocity: one promo code redeemed more than N times in 10 min across all users,
 * or more than M redemptions in 1 h from one device, or from one IP that is not a known
 * consumer network's (a carrier's CGNAT or an office shares one address among many people).
 */
import type { Rule } from "../types.ts";
import { ordinal } from "../words.ts";

export const promoVelocity: Rule = {
  key: "rule_promo_velocity",
  appliesTo: ["event"],
  check(subject, policy, features) {
    if (subject.kind !== "event" || subject.type !== "promo_redemption") return null;
    const promo = features.counts?.promo;
    if (!promo) return null;
    const s = policy.settings.rule_promo_velocity;
    const ofCode = promo.codeLast10Minutes + 1;
    if (subject.promoCode && ofCode > s.per_code_per_10_minutes) {
      return {
        message: `${ordinal(ofCode)} redemption of ${subject.promoCode} in 10 min (limit ${s.per_code_per_10_minutes})`,
        observed: ofCode,
        limit: s.per_code_per_10_minutes,
      };
    }
    const limit = s.per_ip_or_device_per_hour;
    const geo = features.geo;
    const sharedAddress = !!geo && geo.country !== null && !geo.hosting;
    const sources = [
      [sharedAddress ? null : subject.ip, promo.ipLastHour + 1],
      [subject.deviceId && `device ${subject.deviceId}`, promo.deviceLastHour + 1],
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
