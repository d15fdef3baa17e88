/**
 * Attacks that know what the rules count and stay under it: a trial farm whose trials take a
 * card (a handful of real cards spread over many new identities), a referral ring whose
 * referrers were made a day earlier (no account minutes old), and a signup burst from one
 * hosting provider spread over its /24s, each signup with a browser.
 */
import { fakeActor, run } from "./attacker.ts";
import { browsing, eventOf, HOUR, MINUTE, type SimEvent } from "./journey.ts";
import { HETZNER } from "./networks.ts";
import type { Population } from "./population.ts";
import { card, nameOf } from "./world.ts";

/** A trial farm that must give a card: the cards it has (2-4) are the one thing its accounts share. */
export const cardFarm: Population = {
  name: "card_farm",
  payoff: ["trial_start"],
  attack: true,
  share: 8,
  about:
    "careful trial farm on card-required trials: device reset, a new residential proxy and a new real-looking inbox per account, 2-4 real cards taken in turn",
  targetedBy: ["template_one_human_one_trial"],
  group(r, n, start) {
    const cards = Array.from({ length: r.int(2, 4) }, () => card(r));
    return run(r.int(6, 12), start, [3 * MINUTE, 8 * MINUTE], r, (i, at) => {
      // New inboxes at the big providers, named like people (aliases of one inbox would fold).
      const email = nameOf(r, r.int(0, 1e6), r.pick(["gmail.com", "outlook.com", "yahoo.com"]));
      // In turn, so each card carries as few accounts as the farm can manage.
      const used = cards[i % cards.length] as string;
      const actor = fakeActor(this, r, `${n}_${i}`, { email: email.email, typing: "human" });
      return [
        eventOf(r, actor, "signup", at),
        eventOf(r, actor, "trial_start", at + r.int(1, 3) * MINUTE, { card_fingerprint: used }),
      ];
    });
  },
};

/** How long before the hour the ring's referrers signed up: about a day. */
export const REFERRER_AGE_HOURS: readonly [number, number] = [18, 30];
const DAY = 24 * HOUR;

/**
 * A ring that ages its referrers: 2-4 accounts made the day before (each its own device and
 * proxy), then in the hour 3-5 fresh accounts per referrer sign up and name it.
 */
export const agedReferralRing: Population = {
  name: "aged_referral_ring",
  payoff: ["referral"],
  attack: true,
  share: 6,
  about:
    "referral ring with aged referrers: 2-4 accounts made 18-30 h before, then 3-5 fresh accounts each (new devices, rotating residential proxies) naming them",
  targetedBy: ["template_fake_viral_growth_prevention"],
  group(r, n, start, _span, params) {
    // A week (week.ts) ages them for days and has each log in once a day meanwhile.
    const youngest = params?.referrer_age_hours_min ?? REFERRER_AGE_HOURS[0];
    const oldest = params?.referrer_age_hours_max ?? REFERRER_AGE_HOURS[1];
    const referrers = Array.from({ length: r.int(2, 4) }, (_, k) =>
      fakeActor(this, r, `${n}_referrer${k}`, { typing: "human" }),
    );
    const events: SimEvent[] = referrers.flatMap((referrer) => {
      const made = -r.int(youngest * 60, oldest * 60) * MINUTE;
      const logins = params?.referrer_daily_logins
        ? Array.from({ length: Math.floor(-made / DAY) }, (_, day) => ({
            ...eventOf(r, referrer, "login", made + (day + 1) * DAY - r.int(0, 120) * MINUTE),
            early: true,
          }))
        : [];
      return [{ ...eventOf(r, referrer, "signup", made), early: true }, ...logins];
    });
    const order = referrers.flatMap((referrer) =>
      Array.from({ length: r.int(3, 5) }, () => referrer),
    );
    const shuffled = order
      .map((referrer) => ({ referrer, key: r.next() }))
      .sort((a, b) => a.key - b.key);
    events.push(
      ...run(shuffled.length, start, [MINUTE, 6 * MINUTE], r, (i, at) => {
        const { referrer } = shuffled[i] as (typeof shuffled)[number];
        const actor = fakeActor(this, r, `${n}_${i}`, {});
        return [
          eventOf(r, actor, "signup", at),
          eventOf(r, actor, "referral", at + r.int(20, 90) * 1000, {
            referrer_user_id: referrer.userId,
            referral_code: `ref_${referrer.userId}`,
          }),
        ];
      }),
    );
    return events;
  },
};

/**
 * Servers at one hosting provider, each signup from a new /24 (under any per-/24 count) and a
 * real browser on it (an anti-detect browser: a device id, a time zone, warden.js running), so
 * "no browser on a hosting network" does not apply.
 */
export const hostingBurst: Population = {
  name: "hosting_burst",
  payoff: ["signup"],
  attack: true,
  share: 6,
  about:
    "a burst of signups from one hosting provider (Hetzner, AS24940), a new /24 per account, each with a browser running warden.js",
  targetedBy: ["template_account_farm_shield"],
  group(r, n, start) {
    const subnets = new Set<string>();
    return run(r.int(15, 30), start, [10_000, 60_000], r, (i, at) => {
      let subnet = HETZNER.subnet(r);
      while (subnets.has(subnet)) subnet = HETZNER.subnet(r);
      subnets.add(subnet);
      const actor = fakeActor(this, r, `${n}_${i}`, { ip: HETZNER.ip(subnet, r) });
      const page = browsing(r, actor, at - 30_000, at - 5_000, 1);
      return [...page, eventOf(r, actor, "signup", at)];
    });
  },
};
