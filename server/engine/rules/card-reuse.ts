/**
 * rule_cc_reuse: block when one card is used by more than N distinct users or emails in the
 * window (reuse), or when one user, email, IP or device tries more than M distinct cards in
 * 1 h (card testing; per IP only where the address is not a consumer ISP's, which NAT shares).
 * Runs on screened events and on Stripe charges alike.
 */
import { declare, fixed, HOUR, recordWindow } from "../counting.ts";
import type { Rule } from "../types.ts";

export const usersOnCard = declare({
  group: "usersOnCard",
  kinds: ["card"],
  window: recordWindow("rule_cc_reuse", "users"),
  measure: "distinctSubject",
  except: "subject",
});
export const cardsLastHour = declare({
  group: "cardsLastHour",
  kinds: ["user", "email", "ip", "device"],
  window: fixed(HOUR),
  measure: "distinctCard",
  except: "card",
});

export const cardReuse: Rule = {
  key: "rule_cc_reuse",
  appliesTo: ["charge", "event"],
  counts: [usersOnCard, cardsLastHour],
  check(subject, policy, features) {
    const onCard = usersOnCard.read(features);
    const cards = cardsLastHour.read(features);
    if (!onCard || !cards || !subject.cardFingerprint) return null;
    const s = policy.settings.rule_cc_reuse;
    const users = onCard.card + 1;
    if (users > s.max_users_per_card) {
      return {
        message: `card used by ${users} different users or emails in ${s.window_days} days (limit ${s.max_users_per_card})`,
        observed: users,
        limit: s.max_users_per_card,
      };
    }
    // A consumer ISP's address is shared (CGNAT, offices): there the people behind it, not
    // the address, are counted.
    const geo = features.geo;
    const sharedAddress = !!geo && geo.country !== null && !geo.hosting;
    for (const identity of ["user", "email", "ip", "device"] as const) {
      if (identity === "ip" && sharedAddress) continue;
      const tried = cards[identity] + 1;
      if (tried > s.max_cards_per_hour) {
        return {
          message: `${tried} different cards from one ${identity} in 1 h (limit ${s.max_cards_per_hour})`,
          observed: tried,
          limit: s.max_cards_per_hour,
        };
      }
    }
    return null;
  },
};
