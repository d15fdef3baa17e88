/** The careful attacks do what their description says, group after group. */
import { describe, expect, it } from "vitest";
import { lookupIp } from "../../../server/modules/screening/features/geo.ts";
import { agedReferralRing, cardFarm, hostingBurst, REFERRER_AGE_HOURS } from "./careful-attacks.ts";
import { HOUR, type SimEvent } from "./journey.ts";
import { buildTraffic } from "./mix.ts";
import type { Population } from "./population.ts";
import { rng } from "./rng.ts";

/** 40 groups of `pop`, each in time order, as generate() plays them. */
const groups = (pop: Population) => {
  const r = rng(22);
  return Array.from({ length: 40 }, (_, n) =>
    pop.group(r, n, r.next() * HOUR * 0.95, HOUR).sort((a, b) => a.at - b.at),
  );
};
const ofType = (events: SimEvent[], type: string) => events.filter((e) => e.screen.type === type);
const distinct = <T>(values: T[]) => new Set(values).size;

describe("card_farm", () => {
  it.each(groups(cardFarm).map((g, n) => [n, g] as const))(
    "group %i: every trial sends one of 2-4 cards, taken in turn; each account a new device, address and inbox",
    (_n, events) => {
      const trials = ofType(events, "trial_start");
      const cards = trials.map((e) => e.screen.card_fingerprint);
      expect(cards.every(Boolean)).toBe(true);
      const used = distinct(cards);
      expect(used).toBeGreaterThanOrEqual(Math.min(2, trials.length));
      expect(used).toBeLessThanOrEqual(4);
      // In turn: no card carries more than one account above any other.
      const per = [...new Set(cards)].map((c) => cards.filter((x) => x === c).length);
      expect(Math.max(...per) - Math.min(...per)).toBeLessThanOrEqual(1);
      const signups = ofType(events, "signup");
      for (const key of ["email", "ip", "user_id"] as const)
        expect(distinct(signups.map((e) => e.screen[key])), key).toBe(signups.length);
      expect(distinct(signups.map((e) => e.collect?.device_id))).toBe(signups.length);
      expect(signups.every((e) => !e.screen.card_fingerprint)).toBe(true);
    },
  );
});

describe("aged_referral_ring", () => {
  it.each(groups(agedReferralRing).map((g, n) => [n, g] as const))(
    "group %i: referrers signed up 18-30 h before the hour, then 3-5 fresh accounts each name them",
    (_n, events) => {
      const [youngest, oldest] = REFERRER_AGE_HOURS;
      const early = events.filter((e) => e.early);
      expect(early.length).toBeGreaterThanOrEqual(2);
      for (const e of early) {
        expect(e.screen.type).toBe("signup");
        expect(e.at).toBeLessThanOrEqual(-youngest * HOUR);
        expect(e.at).toBeGreaterThanOrEqual(-oldest * HOUR);
      }
      const referrers = new Set(early.map((e) => e.screen.user_id));
      const referrals = ofType(events, "referral");
      expect(referrals.every((e) => e.at >= 0)).toBe(true);
      for (const referrer of referrers) {
        const naming = referrals.filter((e) => e.screen.referrer_user_id === referrer);
        expect(naming.length).toBeGreaterThanOrEqual(3);
        expect(naming.length).toBeLessThanOrEqual(5);
      }
      expect(referrals.every((e) => referrers.has(e.screen.referrer_user_id))).toBe(true);
      // The referred accounts are fresh: a device and an address of their own, not the referrer's.
      const fresh = ofType(events, "signup").filter((e) => !e.early);
      expect(distinct(fresh.map((e) => e.collect?.device_id))).toBe(fresh.length);
      expect(fresh.every((e) => !referrers.has(e.screen.user_id))).toBe(true);
    },
  );

  it("the mix keeps referrers' signups before the hour, in time order, and every other event at 0 or later", () => {
    const events = buildTraffic({ seed: 22, events: 2500, hours: 1 });
    const early = events.filter((e) => e.early);
    expect(early.length).toBeGreaterThan(0);
    // The referrers made before the hour: the ring's, and the honest ones (ordinary-referrals.ts).
    const aged = new Set(["aged_referral_ring", "referral_friends", "influencer_referrals"]);
    expect(early.every((e) => aged.has(e.population) && e.at < 0)).toBe(true);
    expect(events.filter((e) => !e.early).every((e) => e.at >= 0)).toBe(true);
    expect(events.every((e, i) => i === 0 || (events[i - 1]?.at ?? 0) <= e.at)).toBe(true);
    // Every referral names a referrer whose signup came earlier in the traffic.
    const signedUp = new Set<string | undefined>();
    for (const e of events) {
      if (e.screen.type === "signup") signedUp.add(e.screen.user_id);
      if (e.population === "aged_referral_ring" && e.screen.type === "referral")
        expect(signedUp.has(e.screen.referrer_user_id)).toBe(true);
    }
  });
});

describe("hosting_burst", () => {
  it.each(groups(hostingBurst).map((g, n) => [n, g] as const))(
    "group %i: every signup from one hosting ASN, each from its own /24, each with a browser",
    (_n, events) => {
      const signups = ofType(events, "signup");
      expect(signups.length).toBeGreaterThanOrEqual(1);
      const places = signups.map((e) => lookupIp(e.screen.ip ?? ""));
      expect(places.every((p) => p.hosting && p.asn === 24940)).toBe(true);
      const subnets = signups.map((e) => e.screen.ip?.split(".").slice(0, 3).join("."));
      expect(distinct(subnets)).toBe(signups.length);
      expect(signups.every((e) => e.collect?.device_id && e.collect.behavior)).toBe(true);
    },
    20_000,
  );
});
