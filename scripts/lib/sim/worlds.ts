/**
 * Worlds: the same populations in other proportions. `default` is the mix the rules were tuned
 * on (each population's own share). `second` is another merchant's traffic: more people who
 * share an address or a device or are far from home (households, travellers, offices, phones on
 * CGNAT, campuses), and attackers who know the limits (careful farms and rings) rather than
 * headless scripts. With another seed it is traffic the rules were not tuned on: a rule change
 * that only helps on `default` is fitted to it.
 */

export type World = {
  about: string;
  /** Population name → weight, over each population's own share (0 leaves it out). */
  shares: Readonly<Record<string, number>>;
};

export const WORLDS = {
  default: { about: "each population's own share (the mix the rules were tuned on)", shares: {} },
  classic: {
    about:
      "the default mix before card_farm, aged_referral_ring, hosting_burst, referral_friends and influencer_referrals (CI's recorded runs without a world were recorded on it)",
    shares: {
      card_farm: 0,
      aged_referral_ring: 0,
      hosting_burst: 0,
      referral_friends: 0,
      influencer_referrals: 0,
    },
  },
  second: {
    about:
      "more households, travellers, offices, phones on CGNAT and campuses; more careful farms and rings, fewer headless bots",
    shares: {
      // Ordinary: shared addresses and devices, and people away from home, at twice their share
      // or more; the launch burst and the home-broadband majority smaller.
      home_broadband: 14,
      mobile_cgnat: 22,
      office_onboarding: 12,
      university_nat: 12,
      household_shared: 12,
      traveller: 10,
      launch_promo: 8,
      returning_customer: 6,
      // Honest referrals (a household's shared address, a creator's burst) beside the rings.
      referral_friends: 6,
      influencer_referrals: 6,
      // Attacks: the careful ones (new identities per account, aged referrers, cards reused
      // within the limits, bursts spread over a network) up, scripts a rule names down.
      trial_farm: 24,
      card_farm: 16,
      referral_ring: 12,
      aged_referral_ring: 12,
      account_farm_jitter: 16,
      hosting_burst: 10,
      disposable_farm: 8,
      card_testing: 8,
      headless_plain: 2,
      headless_stealth: 6,
      credential_stuffing: 4,
      refund_abuser: 10,
    },
  },
} as const satisfies Record<string, World>;

export type WorldName = keyof typeof WORLDS;

export const WORLD_NAMES = Object.keys(WORLDS) as WorldName[];

/** The world called `name`, or an error listing the worlds there are. */
export function worldOf(name: string): World {
  if (!Object.hasOwn(WORLDS, name))
    throw new Error(`--world: ${name} is not a world (${WORLD_NAMES.join(", ")})`);
  return WORLDS[name as WorldName];
}
