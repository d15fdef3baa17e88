/**
 * rule_farming: at signup, block when the device or card already has N accounts (distinct
 * user id or normalized email) in the window; at an account's event (signup, trial, promo,
 * referral), block when it is linked (links.ts) to N accounts first seen in the last hour, and
 * review when it is linked to an account blocked, denied or labelled fraud, or to a group that
 * appeared at a script's even pace; at checkout, review when the email or card had N refunds,
 * or any dispute, in Warden's Stripe records of the refund window.
 */
import { declare, recordWindow } from "../counting.ts";
import { linkCounts, regularity } from "../links.ts";
import type { Finding, Links, Rule } from "../types.ts";
import { ordinal } from "../words.ts";

export const accountsOn = declare({
  group: "accountsOn",
  kinds: ["device", "card"],
  asks: ["signup"],
  window: recordWindow("rule_farming", "accounts"),
  measure: "distinctSubject",
  except: "subject",
  enabled: (s) => s.rule_farming.accounts,
});

/** The events an account farm is after. */
const ACCOUNT_EVENTS = new Set(["signup", "trial_start", "promo_redemption", "referral"]);
/** Gaps between a group's accounts varying less than this (sd / mean) look scripted. */
const EVEN_PACE = 0.35;
const MIN_PACED = 5;

export const farming: Rule = {
  key: "rule_farming",
  appliesTo: ["event"],
  counts: [accountsOn, linkCounts],
  check(subject, policy, features) {
    if (subject.kind !== "event") return null;
    const s = policy.settings.rule_farming;
    const on = accountsOn.read(features);
    if (subject.type === "signup" && s.accounts && on) {
      for (const identity of ["device", "card"] as const) {
        const value = identity === "device" ? subject.deviceId : subject.cardFingerprint;
        if (value && on[identity] >= s.max_accounts) {
          return {
            message: `this ${identity} already has ${on[identity]} accounts in ${s.window_days} days (limit ${s.max_accounts})`,
            observed: on[identity] + 1,
            limit: s.max_accounts,
          };
        }
      }
    }
    const links = features.links;
    if (s.accounts && links && ACCOUNT_EVENTS.has(subject.type)) {
      const finding =
        linked(links, s.linked_per_hour) ??
        (subject.type === "signup" ? onePhone(subject.userAgent, links) : null) ??
        (CREDITED.has(subject.type) ? creditToNewAccount(subject.type, links) : null);
      if (finding) return finding;
    }
    const history = features.stripeHistory;
    if (subject.type === "checkout" && s.refunds && history) {
      if (history.disputes > 0) {
        return {
          message: `this email or card had ${history.disputes} dispute(s) in ${s.refund_window_days} days`,
          observed: history.disputes,
          limit: 0,
          review: true,
        };
      }
      if (history.refunds >= s.refund_limit) {
        return {
          message: `this email or card had ${history.refunds} refunds in ${s.refund_window_days} days (limit ${s.refund_limit - 1})`,
          observed: history.refunds,
          limit: s.refund_limit - 1,
          review: true,
        };
      }
    }
    return null;
  },
};

function linked(links: Links, limit: number): Finding | null {
  const n = links.firstSeenLastHour;
  if (n >= limit) {
    return {
      message: `linked to ${n} accounts first seen in the last hour, ${throughText(links)} (limit ${limit - 1})`,
      observed: n,
      limit: limit - 1,
    };
  }
  if (links.bad > 0) {
    return {
      message: `linked to ${links.bad} account${links.bad === 1 ? "" : "s"} blocked, denied in review or labelled fraud, ${throughText(links)}`,
      observed: links.bad,
      limit: 0,
      review: true,
    };
  }
  const pace = regularity(links.recent, MIN_PACED);
  if (pace !== null && pace < EVEN_PACE) {
    return {
      message: `linked to ${links.recent.length} accounts that appeared at an even pace in the last hour (gaps vary by ${Math.round(pace * 100)}%; people's by ${Math.round(EVEN_PACE * 100)}% or more), ${throughText(links)}`,
      observed: Math.round(pace * 100) / 100,
      limit: EVEN_PACE,
      review: true,
    };
  }
  return null;
}

/**
 * Events that pay a credit to another account. A promo redemption is left out: a family
 * redeems its welcome codes one after another on the laptop (npm run simulate: household_shared
 * was reviewed).
 */
const CREDITED = new Set(["referral"]);

/**
 * A referral claimed by an account sharing a device, inbox or card with one made in the last
 * hour: reviewed. A ring makes its accounts on a few devices; a friend in the household who
 * refers does so with an account the household has had for a while.
 */
function creditToNewAccount(type: string, links: Links): Finding | null {
  if (links.firstSeenLastHour === 0) return null;
  const n = links.firstSeenLastHour;
  return {
    message: `${type === "referral" ? "referral" : "promo code"} claimed by an account linked to ${n} account${n === 1 ? "" : "s"} first seen in the last hour, ${throughText(links)}`,
    observed: n,
    limit: 0,
    review: true,
  };
}

/** A phone's or tablet's browser (a family shares a laptop; a phone is one person's). */
const PHONE = /\b(iPhone|Android.+Mobile|Mobile Safari|Windows Phone)\b/;

/**
 * A new account on a phone that made another in the last hour: reviewed; a third blocked.
 * Households share a laptop (rule_ip reviews their second trial); a farm of phones on a
 * carrier's NAT makes account after account on each (npm run simulate: account_farm_jitter).
 */
function onePhone(userAgent: string | null, links: Links): Finding | null {
  const others = links.lastHourThrough.device ?? 0;
  if (!userAgent || others === 0 || !PHONE.test(userAgent)) return null;
  const nth = others + 1;
  return {
    message: `${ordinal(nth)} account made on this phone in 1 h (limit 1; the 3rd is blocked)`,
    observed: nth,
    limit: 1,
    ...(nth >= 3 ? {} : { review: true }),
  };
}

/** "through card and device" */
export function throughText(links: Links): string {
  const kinds = links.through.map((t) => (t.kind === "ip" ? "IP address" : t.kind));
  if (kinds.length === 0) return "";
  const last = kinds.pop();
  return `through ${kinds.length > 0 ? `${kinds.join(", ")} and ` : ""}${last}`;
}
