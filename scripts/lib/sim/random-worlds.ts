/**
 * Worlds drawn at random (`--world random-<k>`): every population's share and the parameters of
 * the realities that break a fitted score (how many people sign up with a work email, how big
 * their companies are and how spread over networks, how many of one VPN provider arrive
 * together, households, travellers, relay and machine-like addresses, launch-code users) drawn
 * from ranges. Weights tuned on the named worlds are then judged on mixes no one chose. The same
 * k gives the same world.
 */
import { ATTACKS } from "./attacks.ts";
import type { Params, Population, World } from "./population.ts";
import { ORDINARY } from "./populations.ts";
import { type Rng, rng } from "./rng.ts";

export type Range = readonly [lo: number, hi: number];

/**
 * Ordinary populations whose weight is drawn from a range of its own (log-uniform: as likely
 * a few as many), in the units of the populations' own shares (the ordinary ones sum to 138).
 */
export const SHARE_RANGES: Readonly<Record<string, Range>> = {
  // Work email: from a consumer app (a few teams) to a B2B launch (a sixth of the events).
  company_team: [1, 30],
  vpn_crowd: [0.5, 12],
  privacy_relay_email: [0.5, 12],
  odd_handle: [0.3, 10],
  household_shared: [0.5, 14],
  traveller: [0.3, 12],
  launch_promo: [0.5, 35],
};

/** Every other population: its own share times a factor in FACTOR (log-uniform)... */
export const FACTOR: Range = [0.3, 3];
/** ...or, for an ordinary one with chance NEARLY_NONE_CHANCE, in NEARLY_NONE: all but absent. */
export const NEARLY_NONE: Range = [0.02, 0.1];
export const NEARLY_NONE_CHANCE = 0.12;

/** The parameters a world passes to a population's groups (uniform; sizes whole numbers). */
export const PARAM_RANGES: Readonly<Record<string, Readonly<Record<string, Range>>>> = {
  // Company sizes and how spread their people are: office and phone shares, countries.
  company_team: {
    size_min: [3, 8],
    size_max: [8, 40],
    office: [0, 0.5],
    phone: [0, 0.35],
    countries: [1, 6],
    alias: [0, 0.2],
  },
  // How concentrated one VPN provider's customers are in the hour.
  vpn_crowd: { size_min: [3, 8], size_max: [8, 25], same_exit: [0, 0.3] },
  household_shared: { size_max: [2, 6] },
};

const WHOLE = new Set(["size_min", "size_max", "countries"]);

const logUniform = (r: Rng, [lo, hi]: Range) => lo * (hi / lo) ** r.next();

/** A population's weight in a random world; an attack with no share of its own keeps none. */
function shareOf(r: Rng, pop: Population): number {
  const own = SHARE_RANGES[pop.name];
  if (own && !pop.attack) return logUniform(r, own);
  const nearlyNone = !pop.attack && r.chance(NEARLY_NONE_CHANCE);
  return pop.share * logUniform(r, nearlyNone ? NEARLY_NONE : FACTOR);
}

function paramsOf(r: Rng, ranges: Readonly<Record<string, Range>>): Params {
  return Object.fromEntries(
    Object.entries(ranges).map(([key, [lo, hi]]) => [
      key,
      WHOLE.has(key) ? r.int(lo, hi) : lo + (hi - lo) * r.next(),
    ]),
  );
}

/** The world `random-<k>`: each share and parameter drawn from its own fork of seed k. */
export function randomWorld(k: number): World {
  // Forked per population: adding a population or a range leaves the others' draws alone.
  const root = rng(k).fork("random-world");
  return {
    about: `drawn at random from the ranges of random-worlds.ts (k = ${k})`,
    shares: Object.fromEntries(
      [...ORDINARY, ...ATTACKS].map((pop) => [
        pop.name,
        shareOf(root.fork(`share:${pop.name}`), pop),
      ]),
    ),
    params: Object.fromEntries(
      Object.entries(PARAM_RANGES).map(([name, ranges]) => [
        name,
        paramsOf(root.fork(`params:${name}`), ranges),
      ]),
    ),
  };
}

/** k of `random-<k>` (a positive integer), or null for any other name. */
export function randomWorldNumber(name: string): number | null {
  const match = /^random-([1-9][0-9]{0,8})$/.exec(name);
  return match ? Number(match[1]) : null;
}
