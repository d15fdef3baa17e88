/** Velocity and reuse: each identity counted before this event, through its signal's counts. */
import { DAY, HOUR } from "../counting.ts";
import { SIGNALS } from "./declarations.ts";
import { logCount, type Measuring, plural } from "./measure.ts";

/** Pages a minute people make from one address or device (a household together, reading fast). */
export const PERSON_REQUESTS_PER_MINUTE = 6;

/** Signups before this one from its address, /24, hosting network and device in 1 h. */
export function signupSignals({ subject, features, add }: Measuring): void {
  if (subject.type !== "signup") return;
  const geo = features.geo;
  const consumer = !!geo && geo.country !== null && !geo.hosting;
  const before = SIGNALS.signups_ip.counts.signups.of(features);
  if (subject.ip && !consumer) {
    add(
      "signups_ip",
      logCount(before.ip),
      `${before.ip} earlier signups from ${subject.ip} in 1 h`,
    );
    const subnet = SIGNALS.signups_subnet.counts.signups.of(features).subnet;
    add("signups_subnet", logCount(subnet), `${subnet} earlier signups from its /24 in 1 h`);
    if (geo?.hosting) {
      const network = SIGNALS.signups_network.counts.signups.of(features).network;
      add(
        "signups_network",
        logCount(network, 5),
        `${network} earlier signups from AS${geo.asn} in 1 h`,
      );
    }
  }
  if (subject.deviceId) {
    const device = SIGNALS.signups_device.counts.signups.of(features).device;
    add("signups_device", logCount(device), `${device} earlier signups from this device in 1 h`);
  }
}

/** Other accounts on this device or card, and earlier trials with this email, card or device. */
export function accountSignals({ subject, features, add }: Measuring): void {
  if (subject.deviceId) {
    const { users, accounts } = SIGNALS.accounts_on_device.counts;
    const n = Math.max(users.of(features).device, accounts.of(features).device);
    add("accounts_on_device", logCount(n), `${n} other account${plural(n)} on this device`);
  }
  if (subject.cardFingerprint) {
    const { users, accounts } = SIGNALS.accounts_on_card.counts;
    const n = Math.max(users.of(features).card, accounts.of(features).card);
    add("accounts_on_card", logCount(n), `${n} other account${plural(n)} on this card`);
  }
  if (subject.type === "trial_start") {
    const prior = SIGNALS.prior_trials.counts.prior.of(features);
    const n = Math.max(prior.email, prior.card, prior.device);
    add(
      "prior_trials",
      logCount(n),
      `${n} earlier trial${plural(n)} with this email, card or device`,
    );
  }
}

/** A promo code's reuse by this person, its burst, and redemptions from this source. */
export function promoSignals({ subject, features, add }: Measuring): void {
  if (subject.type !== "promo_redemption") return;
  const by = SIGNALS.promo_reused.counts.by.of(features);
  const n = Math.max(by.email, by.device, by.card);
  add(
    "promo_reused",
    logCount(n),
    `code already redeemed ${n} time${plural(n)} by this email, device or card`,
  );
  const burst = SIGNALS.promo_burst.counts.code.of(features).promo;
  add("promo_burst", logCount(burst, 6), `${burst} redemptions of this code in 10 min`);
  const source = SIGNALS.promo_same_source.counts.source.of(features);
  const same = Math.max(source.ip, source.device);
  add("promo_same_source", logCount(same), `${same} redemptions from this IP or device in 1 h`);
}

/** A referral sharing an identity with its referrer, the referrer's referrals, and its age. */
export function referralSignals({ subject, features, add }: Measuring): void {
  if (subject.type !== "referral" || !subject.referrerUserId) return;
  const shared = SIGNALS.referrer_shares.counts.shares.of(features);
  const shares = (["card", "email", "device", "ip"] as const).filter((k) => shared[k] > 0);
  add(
    "referrer_shares",
    shares.length > 0 ? 1 : 0,
    `shares a ${shares.join(", ")} with the referrer`,
  );
  const n = SIGNALS.referrals_to_referrer.counts.referrals.of(features).referrer;
  add(
    "referrals_to_referrer",
    logCount(n, 6),
    `${n} earlier referrals naming ${subject.referrerUserId} in 1 h`,
  );
  const now = features.now ?? null;
  const first = features.links?.referrerFirstSeen ?? null;
  if (now !== null && (first === null || now - first < 7 * DAY)) {
    add(
      "referrer_young",
      1,
      first === null
        ? "referrer never seen before"
        : `referrer first seen ${Math.max(1, Math.round((now - first) / HOUR))} h ago`,
    );
  }
}

/** Pages past a person's pace, cards tried in an hour, and the Stripe history of refunds. */
export function paceSignals({ subject, features, add }: Measuring): void {
  if (subject.type === "request") {
    // Counted past a person's pace: a family browsing on one laptop and one home address makes
    // a few pages a minute (issue 42: 2 a minute scored +19 and blocked households' page views).
    const recent = SIGNALS.requests_per_minute.counts.requests.of(features);
    const n = Math.max(recent.ip, recent.device);
    add(
      "requests_per_minute",
      logCount(n - PERSON_REQUESTS_PER_MINUTE, 6),
      `${n} requests in the last minute from this IP or device (a person's pace is up to ${PERSON_REQUESTS_PER_MINUTE})`,
    );
  }
  const tried = SIGNALS.cards_last_hour.counts.cards.of(features);
  const cards = Math.max(tried.user, tried.email, tried.ip, tried.device);
  add(
    "cards_last_hour",
    logCount(cards, 5),
    `${cards} other card${plural(cards)} from this user, email, IP or device in 1 h`,
  );
  const history = features.stripeHistory;
  if (history && subject.type === "checkout") {
    add(
      "refunds",
      logCount(history.refunds, 3),
      `${history.refunds} refund${plural(history.refunds)} for this email or card`,
    );
    add(
      "disputes",
      logCount(history.disputes, 2),
      `${history.disputes} dispute${plural(history.disputes)} for this email or card`,
    );
  }
}
