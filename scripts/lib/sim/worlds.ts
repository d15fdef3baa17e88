/**
 * Worlds: the same populations in other proportions. `default` is the mix the rules were tuned
 * on (each population's own share). `second` is another merchant's traffic: more people who
 * share an address or a device or are far from home (households, travellers, offices, phones on
 * CGNAT, campuses), and attackers who know the limits (careful farms and rings) rather than
 * headless scripts. With another seed it is traffic the rules were not tuned on: a rule change
 * that only helps on `default` is fitted to it. `random-<k>` is a world drawn from ranges
 * (random-worlds.ts): traffic no one chose the shares of.
 */
import { ATTACKS } from "./attacks.ts";
import type { Params, World } from "./population.ts";
import { ORDINARY } from "./populations.ts";
import { randomWorld, randomWorldNumber } from "./random-worlds.ts";

export type { World };

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
      // A company's team from homes and phones, a VPN provider's crowd, machine-like handles.
      company_team: 10,
      vpn_crowd: 6,
      odd_handle: 4,
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

/** The world called `name` (a named one or `random-<k>`), or an error listing the worlds there are. */
export function worldOf(name: string): World {
  const k = randomWorldNumber(name);
  if (k !== null) return randomWorld(k);
  if (!Object.hasOwn(WORLDS, name))
    throw new Error(
      `--world: ${name} is not a world (${WORLD_NAMES.join(", ")}, or random-<k> for k = 1, 2, ...)`,
    );
  return WORLDS[name as WorldName];
}

/** One population's weight in a world and its share of its side (ordinary or attack). */
export type WorldShare = { population: string; attack: boolean; weight: number; share: number };

/** What a world plays: every population's weight and share of its side, and the parameters. */
export function describeWorld(name: string): {
  name: string;
  about: string;
  shares: WorldShare[];
  params: Readonly<Record<string, Params>>;
} {
  const world = worldOf(name);
  const rows = (pops: readonly { name: string; attack: boolean; share: number }[]) => {
    const weights = pops.map((pop) => world.shares[pop.name] ?? pop.share);
    const total = weights.reduce((sum, w) => sum + w, 0) || 1;
    return pops.map((pop, i) => ({
      population: pop.name,
      attack: pop.attack,
      weight: weights[i] ?? 0,
      share: (weights[i] ?? 0) / total,
    }));
  };
  return {
    name,
    about: world.about,
    shares: [...rows(ORDINARY), ...rows(ATTACKS)],
    params: world.params ?? {},
  };
}

const round = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));

/** The world as a report prints it: its shares per side and its parameters, as Markdown. */
export function worldReport(name: string): string {
  const world = describeWorld(name);
  const rows = world.shares
    .filter((row) => row.weight > 0)
    .map(
      (row) =>
        `| ${row.population} | ${row.attack ? "attack" : "ordinary"} | ${round(row.weight)} | ${(row.share * 100).toFixed(1)}% |`,
    );
  const params = Object.entries(world.params).map(
    ([population, values]) =>
      `- ${population}: ${Object.entries(values)
        .map(([key, value]) => `${key} ${round(value)}`)
        .join(", ")}`,
  );
  return [
    `World ${name}: ${world.about}`,
    "",
    "| population | kind | weight | share of its side |",
    "|---|---|---:|---:|",
    ...rows,
    ...(params.length > 0 ? ["", "Parameters:", ...params] : []),
  ].join("\n");
}
