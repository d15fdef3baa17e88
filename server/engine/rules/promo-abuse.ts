/**
 * rule_promo_abuse: at promo_redemption, block a promo code already redeemed by the same
 * normalized email, device or card; at referral, block a self-referral (the referrer's own
 * events share this event's device, IP, card or email).
 */
import type { Rule } from "../types.ts";

export const promoAbuse: Rule = {
  key: "rule_promo_abuse",
  appliesTo: ["event"],
  check(subject, policy, features) {
    if (subject.kind !== "event" || !features.counts) return null;
    const settings = policy.settings.rule_promo_abuse;
    if (subject.type === "promo_redemption" && settings.promo_reuse && subject.promoCode) {
      const by = features.counts.promoRedeemedBy;
      for (const identity of ["email", "device", "card"] as const) {
        if (by[identity] > 0) {
          const earlier = by[identity];
          return {
            message: `promo code ${subject.promoCode} already redeemed by this ${identity}: ${earlier} earlier redemption${earlier === 1 ? "" : "s"} (limit: once per email, device or card)`,
            observed: earlier + 1,
            limit: 1,
          };
        }
      }
    }
    if (subject.type === "referral" && settings.self_referral && subject.referrerUserId) {
      const shares = features.counts.referrerShares;
      for (const identity of ["device", "card", "email", "ip"] as const) {
        if (shares[identity] > 0) {
          const seen = shares[identity];
          return {
            message: `self-referral: referrer ${subject.referrerUserId} shares this ${identity}: seen on ${seen} of the referrer's events (limit: none shared)`,
            observed: identity,
            limit: null,
          };
        }
      }
    }
    return null;
  },
};
