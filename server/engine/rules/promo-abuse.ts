/**
 * rule_promo_abuse: at promo_redemption, block a promo code already redeemed by the same
 * normalized email, device or card; at referral, block a self-referral (selfReferral), and
 * more than N referrals naming one referrer in 1 h, or M when the referrer itself is under 7
 * days old: a ring rotates devices and proxies per fake account, but each account must name a
 * referrer it feeds; a creator whose post brings dozens has been around for weeks.
 */
import { DAY, declare, fixed, HOUR, recordWindow } from "../counting.ts";
import { linkCounts, referrerCounts } from "../links.ts";
import type { Features, Finding, Rule } from "../types.ts";
import { ordinal } from "../words.ts";

/**
 * A referrer first seen this recently gets the lower limit: a ring's referrers are made for
 * it (the ring that ages them a day is still young); a customer who brings friends, or a
 * creator whose post brings dozens, has been around for weeks.
 */
const NEW_REFERRER = 7 * DAY;

export const promoRedeemedBy = declare({
  group: "promoRedeemedBy",
  kinds: ["email", "device", "card"],
  asks: ["promo_redemption"],
  types: ["promo_redemption"],
  window: recordWindow("rule_promo_abuse", "promos"),
  measure: "count",
  notBlocked: true,
  samePromo: true,
  enabled: (s) => s.rule_promo_abuse.promo_reuse,
});
export const referrerShares = declare({
  group: "referrerShares",
  kinds: ["device", "ip", "card", "email"],
  asks: ["referral"],
  window: recordWindow("rule_promo_abuse", "promos"),
  measure: "count",
  ofReferrer: true,
  enabled: (s) => s.rule_promo_abuse.self_referral,
});
export const referralsOfReferrer = declare({
  group: "referralsLastHour",
  kinds: ["referrer"],
  asks: ["referral"],
  types: ["referral"],
  window: fixed(HOUR),
  measure: "count",
});

export const promoAbuse: Rule = {
  key: "rule_promo_abuse",
  appliesTo: ["event"],
  counts: [promoRedeemedBy, referrerShares, referralsOfReferrer, referrerCounts, linkCounts],
  check(subject, policy, features): Finding | null {
    if (subject.kind !== "event") return null;
    const settings = policy.settings.rule_promo_abuse;
    const by = promoRedeemedBy.read(features);
    if (subject.type === "promo_redemption" && settings.promo_reuse && subject.promoCode && by) {
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
    if (subject.type !== "referral" || !subject.referrerUserId) return null;
    const shares = referrerShares.read(features);
    if (settings.self_referral && shares) {
      const finding = selfReferral(subject.referrerUserId, shares, features);
      if (finding) return finding;
    }
    const referrals = referralsOfReferrer.read(features);
    if (!referrals) return null;
    const nth = referrals.referrer + 1;
    const referrerAge = features.links?.referrerFirstSeen;
    const young =
      referrerAge != null && features.now != null && features.now - referrerAge < NEW_REFERRER;
    const limit = young
      ? settings.referrals_per_new_referrer_per_hour
      : settings.referrals_per_referrer_per_hour;
    if (nth > limit) {
      return {
        message: `${ordinal(nth)} referral naming ${subject.referrerUserId} in 1 h (limit ${limit}${young ? " for a referrer first seen under 7 days ago" : ""})`,
        observed: nth,
        limit,
      };
    }
    if (young && nth >= 2 && referrerAge !== null && features.now !== undefined) {
      const hours = Math.max(1, Math.round((features.now - referrerAge) / HOUR));
      return {
        message: `${ordinal(nth)} referral in 1 h naming ${subject.referrerUserId}, an account first seen ${hours} h ago (reviewed from the 2nd; limit ${limit})`,
        observed: nth,
        limit,
        review: true,
      };
    }
    return null;
  },
};

/**
 * The referrer's own events share this referral's card or email (blocked), its device
 * (reviewed: a sibling on the family laptop refers too) or its address off consumer networks
 * (blocked); a home's or a carrier's address is shared by its NAT (npm run simulate:
 * referral_friends in one household were blocked when it counted).
 */
function selfReferral(
  referrer: string,
  shares: Record<"device" | "ip" | "card" | "email", number>,
  features: Features,
): Finding | null {
  const geo = features.geo;
  const sharedAddress = !!geo && geo.country !== null && !geo.hosting;
  for (const identity of ["card", "email", "device", "ip"] as const) {
    if (shares[identity] === 0 || (identity === "ip" && sharedAddress)) continue;
    return {
      message: `self-referral: referrer ${referrer} shares this ${identity}: seen on ${shares[identity]} of the referrer's events (limit: none shared)`,
      observed: identity,
      limit: null,
      ...(identity === "device" ? { review: true } : {}),
    };
  }
  return null;
}
