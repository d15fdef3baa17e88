/** The honest referrals do what their description says, group after group and in the mix. */
import { describe, expect, it } from "vitest";
import { lookupIp } from "../../../server/modules/screening/features/geo.ts";
import { HOUR, MINUTE, type SimEvent } from "./journey.ts";
import { buildTraffic } from "./mix.ts";
import { CGNAT, CONSUMER_VPN } from "./networks.ts";
import {
  CREATOR_AGE_DAYS,
  CUSTOMER_AGE_DAYS,
  influencerReferrals,
  referralFriends,
} from "./ordinary-referrals.ts";
import type { Population } from "./population.ts";
import { rng } from "./rng.ts";

const DAY = 24 * HOUR;
/** `count` groups of `pop`, each in time order, as generate() plays them. */
const groups = (pop: Population, count = 40) => {
  const r = rng(22);
  return Array.from({ length: count }, (_, n) =>
    pop.group(r, n, r.next() * HOUR * 0.95, HOUR).sort((a, b) => a.at - b.at),
  );
};
const ofType = (events: SimEvent[], type: string) => events.filter((e) => e.screen.type === type);
const distinct = <T>(values: T[]) => new Set(values).size;
const COMMON_PROVIDERS = new Set([
  "gmail.com",
  "yahoo.com",
  "outlook.com",
  "hotmail.com",
  "icloud.com",
  "proton.me",
  "gmx.de",
  "orange.fr",
]);
const CGNAT_ADDRESSES = new Set(CGNAT.flatMap((c) => c.addresses));

/** The referrer's early signup and the hour's referrals naming it, with each referrer's signup. */
function referrerAndReferrals(events: SimEvent[]) {
  const early = events.filter((e) => e.early);
  const signup = early[0] as SimEvent;
  const referrals = ofType(events, "referral");
  const signups = ofType(events, "signup").filter((e) => !e.early);
  return { early, signup, referrals, signups };
}

describe("referral_friends", () => {
  it.each(groups(referralFriends).map((g, n) => [n, g] as const))(
    "group %i: a customer of 8-90 days, then 1-3 friends, each their own account and signup, name them minutes apart",
    (_n, events) => {
      const [youngest, oldest] = CUSTOMER_AGE_DAYS;
      const { early, signup, referrals, signups } = referrerAndReferrals(events);
      const customer = signup.screen.user_id;
      expect(signup.screen.type).toBe("signup");
      expect(signup.at).toBeLessThanOrEqual(-youngest * DAY);
      expect(signup.at).toBeGreaterThanOrEqual(-oldest * DAY);
      // Maybe a login since: the customer's, on their device and address, after joining.
      expect(early.length).toBeLessThanOrEqual(2);
      for (const e of early.slice(1)) {
        expect(e.screen.type).toBe("login");
        expect(e.at).toBeGreaterThan(signup.at);
        expect(e.at).toBeLessThan(0);
        expect([e.screen.user_id, e.screen.ip]).toEqual([customer, signup.screen.ip]);
        expect(e.collect?.device_id).toBe(signup.collect?.device_id);
      }
      expect(referrals.length).toBeGreaterThanOrEqual(1);
      expect(referrals.length).toBeLessThanOrEqual(3);
      expect(events.every((e) => !e.attack)).toBe(true);
      for (const e of referrals) {
        expect(e.at).toBeGreaterThanOrEqual(0);
        expect(e.screen.referrer_user_id).toBe(customer);
        expect(e.screen.referral_code).toBe(`ref_${customer}`);
      }
      // Each friend refers once, 10-90 s after their own signup; friends come minutes apart.
      expect(distinct(referrals.map((e) => e.screen.user_id))).toBe(referrals.length);
      expect(signups.map((e) => e.screen.user_id)).toEqual(referrals.map((e) => e.screen.user_id));
      for (const [i, e] of referrals.entries()) {
        const own = signups[i] as SimEvent;
        expect(e.at - own.at).toBeGreaterThanOrEqual(10_000);
        expect(e.at - own.at).toBeLessThanOrEqual(90_000);
        if (i > 0)
          expect(own.at - (signups[i - 1] as SimEvent).at).toBeGreaterThanOrEqual(2 * MINUTE);
        expect(COMMON_PROVIDERS.has(own.screen.email?.split("@")[1] ?? "")).toBe(true);
        expect(own.screen.email).not.toBe(signup.screen.email);
        // A person typing: seconds to fill the form, uneven keystrokes.
        expect(own.collect?.behavior?.time_to_submit_ms).toBeGreaterThanOrEqual(6_000);
        expect(own.collect?.behavior?.key_interval_sd_ms).toBeGreaterThanOrEqual(45);
        // A friend away from the customer's home is on a device of their own.
        if (own.screen.ip !== signup.screen.ip)
          expect(own.collect?.device_id).not.toBe(signup.collect?.device_id);
      }
    },
  );

  it("a fifth of friends live with the customer (their address), a third of those on its laptop", () => {
    const friends = groups(referralFriends, 600).flatMap((events) => {
      const { signup, signups } = referrerAndReferrals(events);
      return signups.map((own) => ({
        home: own.screen.ip === signup.screen.ip,
        laptop: own.collect?.device_id === signup.collect?.device_id,
      }));
    });
    const home = friends.filter((f) => f.home);
    expect(home.length / friends.length).toBeGreaterThan(0.15);
    expect(home.length / friends.length).toBeLessThan(0.25);
    const laptop = home.filter((f) => f.laptop).length / home.length;
    expect(laptop).toBeGreaterThan(0.2);
    expect(laptop).toBeLessThan(0.4);
    // Away from the customer's home: their own broadband line or their phone's CGNAT.
    const away = groups(referralFriends, 200).flatMap((events) => {
      const { signup, signups } = referrerAndReferrals(events);
      return signups.filter((own) => own.screen.ip !== signup.screen.ip);
    });
    expect(away.some((e) => CONSUMER_VPN.includes(e.screen.ip ?? ""))).toBe(false);
    const phones = away.filter((e) => CGNAT_ADDRESSES.has(e.screen.ip ?? "")).length;
    expect(phones / away.length).toBeGreaterThan(0.2);
    expect(phones / away.length).toBeLessThan(0.4);
  }, 20_000);
});

describe("influencer_referrals", () => {
  it.each(groups(influencerReferrals).map((g, n) => [n, g] as const))(
    "group %i: a creator of 30-300 days, then 10-30 people on 10-30 devices name them within 40 minutes",
    (_n, events) => {
      const [youngest, oldest] = CREATOR_AGE_DAYS;
      const { early, signup, referrals, signups } = referrerAndReferrals(events);
      const creator = signup.screen.user_id;
      expect(early).toEqual([signup]);
      expect(signup.screen.type).toBe("signup");
      expect(signup.at).toBeLessThanOrEqual(-youngest * DAY);
      expect(signup.at).toBeGreaterThanOrEqual(-oldest * DAY);
      expect(events.every((e) => !e.attack)).toBe(true);
      expect(referrals.length).toBeGreaterThanOrEqual(10);
      expect(referrals.length).toBeLessThanOrEqual(30);
      for (const e of referrals) {
        expect(e.screen.referrer_user_id).toBe(creator);
        expect(e.screen.referral_code).toBe(`ref_${creator}`);
      }
      // Different people: an account, a device and an email each, none the creator's.
      const devices = referrals.map((e) => e.collect?.device_id);
      expect(distinct(devices)).toBe(referrals.length);
      expect(devices).not.toContain(signup.collect?.device_id);
      expect(distinct(referrals.map((e) => e.screen.user_id))).toBe(referrals.length);
      expect(distinct(signups.map((e) => e.screen.email))).toBe(signups.length);
      const times = signups.map((e) => e.at);
      expect(Math.max(...times) - Math.min(...times)).toBeLessThanOrEqual(40 * MINUTE);
      expect(times.every((t) => t >= 0)).toBe(true);
    },
  );

  it("the people come from everywhere: home lines in several countries, phones on CGNAT, a few VPNs", () => {
    const signups = groups(influencerReferrals, 10).flatMap((events) =>
      ofType(events, "signup").filter((e) => !e.early),
    );
    const places = signups.map((e) => lookupIp(e.screen.ip ?? ""));
    expect(distinct(places.map((p) => p.country))).toBeGreaterThanOrEqual(4);
    const vpn = places.filter((p) => p.hosting).length / signups.length;
    const phones = signups.filter((e) => CGNAT_ADDRESSES.has(e.screen.ip ?? "")).length;
    expect(vpn).toBeGreaterThan(0.04);
    expect(vpn).toBeLessThan(0.2);
    expect(phones / signups.length).toBeGreaterThan(0.2);
  }, 20_000);
});

describe("in the mix", () => {
  const traffic = buildTraffic({ seed: 22, events: 2500, hours: 1 });
  const signedUp = new Map<string, number>();
  for (const e of traffic)
    if (e.screen.type === "signup" && e.screen.user_id && !signedUp.has(e.screen.user_id))
      signedUp.set(e.screen.user_id, e.at);
  const referrals = (population: string) =>
    traffic.filter((e) => e.population === population && e.screen.type === "referral");

  it("every friend's referral names a referrer whose signup precedes the hour by 8 days or more", () => {
    expect(referrals("referral_friends").length).toBeGreaterThan(0);
    for (const e of referrals("referral_friends")) {
      expect(e.at).toBeGreaterThanOrEqual(0);
      expect(signedUp.get(e.screen.referrer_user_id ?? "")).toBeLessThanOrEqual(-8 * DAY);
    }
  });

  it("a creator signed up 30 days or more before the hour is named 10 times or more in it", () => {
    const named = new Map<string, number>();
    for (const e of referrals("influencer_referrals")) {
      const referrer = e.screen.referrer_user_id ?? "";
      expect(signedUp.get(referrer)).toBeLessThanOrEqual(-30 * DAY);
      named.set(referrer, (named.get(referrer) ?? 0) + 1);
    }
    expect(Math.max(...named.values())).toBeGreaterThanOrEqual(10);
  });
});
