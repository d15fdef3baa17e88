/**
 * Ordinary referrals: customers who bring friends, and a creator whose post brings dozens. Each
 * referrer is an account made weeks or months before the hour (its signup played early, with its
 * own device and home address), so the referral rules' false positives are measured on
 * referrers with a past: a friend in the same household shares the customer's address (some
 * also the laptop) and looks like a self-referral; a creator's post names one referrer dozens
 * of times within the hour, as a referral ring does.
 */
import { type Actor, browsing, eventOf, MINUTE, type SimEvent } from "./journey.ts";
import { CGNAT, CONSUMER_VPN, HOME } from "./networks.ts";
import { homePerson, newcomer } from "./ordinary-person.ts";
import type { Population } from "./population.ts";
import type { Rng } from "./rng.ts";
import { MOBILE_BROWSERS, nameOf } from "./world.ts";

const DAY_MINUTES = 24 * 60;

/** How long before the hour a customer who brings friends signed up, in days. */
export const CUSTOMER_AGE_DAYS: readonly [number, number] = [8, 90];
/** How long before the hour a creator signed up, in days. */
export const CREATOR_AGE_DAYS: readonly [number, number] = [30, 300];
/** Share of friends who live with the customer: the same home address. */
export const HOUSEHOLD = 0.2;
/** Share of those on the customer's own laptop (the same device and browser). */
export const SAME_LAPTOP = 0.3;

/** The account's signup between `youngest` and `oldest` days before the hour, played early. */
function joined(r: Rng, actor: Actor, [youngest, oldest]: readonly [number, number]): SimEvent {
  const minutes = r.int(youngest * DAY_MINUTES, oldest * DAY_MINUTES);
  return { ...eventOf(r, actor, "signup", -minutes * MINUTE), early: true };
}

/** The referral a new account sends naming `referrer`, with the code its invite link carries. */
const referral = (r: Rng, actor: Actor, referrer: Actor, at: number) =>
  eventOf(r, actor, "referral", at, {
    referrer_user_id: referrer.userId,
    referral_code: `ref_${referrer.userId}`,
  });

/**
 * The actor with an inbox no one else in `taken` has: names repeat among dozens of people
 * (two john.smith), inboxes do not, and a shared one would link two strangers' accounts.
 */
function ownInbox(r: Rng, actor: Actor, taken: Set<string>): Actor {
  let email = actor.email;
  while (taken.has(email)) email = nameOf(r, r.int(0, 1e6)).email;
  taken.add(email);
  return { ...actor, email };
}

/** A phone on its carrier's CGNAT, in the carrier's country. */
function onPhone(r: Rng): Partial<Actor> {
  const carrier = r.pick(CGNAT);
  return {
    ip: r.pick(carrier.addresses),
    zone: r.pick(carrier.network.zones),
    ua: r.pick(MOBILE_BROWSERS),
  };
}

/**
 * A friend of `customer`: their own person at home or on their phone, typing; or, for
 * HOUSEHOLD of them, at the customer's home (its address and time zone), some on its laptop.
 */
function friendOf(pop: Population, r: Rng, id: string, customer: Actor): Actor {
  const own = homePerson(pop, r, id, { typing: "human", ...(r.chance(0.3) ? onPhone(r) : {}) });
  if (!r.chance(HOUSEHOLD)) return own;
  const laptop = r.chance(SAME_LAPTOP) ? { device: customer.device, ua: customer.ua } : {};
  return { ...own, ip: customer.ip, zone: customer.zone, ...laptop };
}

export const referralFriends: Population = {
  name: "referral_friends",
  attack: false,
  share: 5,
  about:
    "a customer of 8-90 days shares an invite: 1-3 friends sign up minutes apart and name them (20% of friends in the same household, 30% of those on the same laptop)",
  group(r, n, start) {
    const customer = homePerson(this, r, `${n}_customer`);
    const signup = joined(r, customer, CUSTOMER_AGE_DAYS);
    const events = [signup];
    const taken = new Set([customer.email]);
    if (r.chance(0.5)) {
      // Back since: a login from an hour to two weeks before the hour, a day after joining at least.
      const latest = Math.min(14 * DAY_MINUTES, -signup.at / MINUTE - DAY_MINUTES);
      events.push({ ...eventOf(r, customer, "login", -r.int(60, latest) * MINUTE), early: true });
    }
    let at = start;
    for (let i = 0, friends = r.int(1, 3); i < friends; i++) {
      const friend = ownInbox(r, friendOf(this, r, `${n}_${i}`, customer), taken);
      // The invite code is applied once the account exists, a few seconds after its signup.
      events.push(
        ...newcomer(r, friend, at),
        referral(r, friend, customer, at + r.int(10, 90) * 1000),
      );
      at += r.int(2, 15) * MINUTE;
    }
    return events;
  },
};

/** Someone who follows the creator, wherever they are: at home, on a phone, or on a VPN. */
function followerOf(pop: Population, r: Rng, id: string): Actor {
  const where = r.weighted([
    ["home", 55],
    ["phone", 33],
    ["vpn", 12],
  ] as const);
  if (where === "phone") return homePerson(pop, r, id, onPhone(r));
  if (where === "vpn")
    return homePerson(pop, r, id, { ip: r.pick(CONSUMER_VPN), zone: r.pick(r.pick(HOME).zones) });
  return homePerson(pop, r, id);
}

/** A follower's visit: the invite page, a signup naming the creator, a trial for some. */
function followed(r: Rng, follower: Actor, creator: Actor, at: number): SimEvent[] {
  const events = [
    ...browsing(r, follower, at - 3 * MINUTE, at, 1),
    eventOf(r, follower, "signup", at),
    referral(r, follower, creator, at + r.int(10, 60) * 1000),
  ];
  if (r.chance(0.3)) events.push(eventOf(r, follower, "trial_start", at + r.int(1, 6) * MINUTE));
  events.push(...browsing(r, follower, at, at + 10 * MINUTE, r.int(0, 1)));
  return events;
}

export const influencerReferrals: Population = {
  name: "influencer_referrals",
  attack: false,
  // A burst is one creator's 40-120 events: a share that holds one in the default 2,500 events.
  share: 6,
  about:
    "a creator of 30-300 days posts their invite link: 10-30 people from everywhere (home, phones on CGNAT, a few VPNs) sign up and name them within 15-40 minutes",
  group(r, n, start) {
    const creator = homePerson(this, r, `${n}_creator`);
    const events = [joined(r, creator, CREATOR_AGE_DAYS)];
    const taken = new Set([creator.email]);
    const burst = r.int(15, 40) * MINUTE;
    for (let i = 0, people = r.int(10, 30); i < people; i++) {
      // Most come right after the post, fewer as it ages.
      const at = start + r.next() ** 2 * burst;
      const follower = ownInbox(r, followerOf(this, r, `${n}_${i}`), taken);
      events.push(...followed(r, follower, creator, at));
    }
    return events;
  },
};
