/**
 * bench:screen's seeded population of end users: people, their devices, home networks, cards
 * and time zones; a few families and NATs sharing devices and addresses; an account farm
 * sharing devices, cards and two hosting addresses; a few scrapers and bots.
 */
import { seededRandom } from "../../../lib/seeded-random.ts";
import { emailFor } from "./names.ts";
import { hex, pick } from "./random.ts";
import { ALL_ZONES, BOTS, BROWSERS, HOSTING, NETWORKS } from "./world.ts";

export type Person = {
  userId: string;
  email: string;
  /** Gmail writes the same inbox in other ways; abusers use them. */
  aliases: string[];
  ip: string;
  mobileIp: string;
  timezone: string;
  devices: string[];
  card: string | null;
  ua: string;
  farm: boolean;
};

export type Population = {
  people: Person[];
  scrapers: { ip: string; device: string; ua: string | null }[];
  size: { people: number; devices: number; ips: number; cards: number };
};

type Network = (typeof NETWORKS)[number];

/** The network at p (0..1) of the networks' weights. */
function network(p: number): Network {
  let x = p * NETWORKS.reduce((s, n) => s + n.weight, 0);
  for (const n of NETWORKS) {
    x -= n.weight;
    if (x < 0) return n;
  }
  return NETWORKS[0] as Network;
}

/**
 * Shared things: 150 NAT/office addresses (a few people each, several in one /24), 120 family
 * devices, 60 family cards; the farm's 6 devices, 4 cards and 2 hosting addresses.
 */
function sharedThings(r: () => number) {
  const natBase = Array.from({ length: 30 }, () => network(r()).ip(r));
  const nats = natBase.flatMap((ip) =>
    ip.includes(":")
      ? Array.from({ length: 5 }, (_, i) => ip.replace(/::[0-9a-f]+$/, `::${i + 1}`))
      : Array.from({ length: 5 }, (_, i) => ip.replace(/\.\d+$/, `.${10 + i}`)),
  );
  const familyDevices = Array.from({ length: 120 }, () => `d_${hex(r, 12)}`);
  const familyCards = Array.from({ length: 60 }, () => `card_${hex(r, 14)}`);
  const farmDevices = Array.from({ length: 6 }, () => `d_${hex(r, 12)}`);
  const farmCards = Array.from({ length: 4 }, () => `card_${hex(r, 14)}`);
  const farmIps = [HOSTING(r), HOSTING(r)];
  return { nats, familyDevices, familyCards, farmDevices, farmCards, farmIps };
}

/** Person `n`: ~60 of 4,000 in the farm (60 accounts on 6 devices, 4 cards, 2 addresses). */
function makePerson(r: () => number, n: number, shared: ReturnType<typeof sharedThings>): Person {
  const { nats, familyDevices, familyCards, farmDevices, farmCards, farmIps } = shared;
  const farm = n % 67 === 13; // ~60 of 4,000
  const net = network(r());
  const { email, aliases } = emailFor(r, n);
  const zone = r() < 0.04 ? pick(r, ALL_ZONES) : pick(r, net.zones); // ~4% travel or VPN
  const devices = farm
    ? [pick(r, farmDevices)]
    : r() < 0.08
      ? [pick(r, familyDevices), `d_${hex(r, 12)}`]
      : r() < 0.35
        ? [`d_${hex(r, 12)}`, `d_${hex(r, 12)}`]
        : [`d_${hex(r, 12)}`];
  return {
    userId: `u_${(100000 + n).toString(36)}`,
    email,
    aliases,
    ip: farm ? pick(r, farmIps) : r() < 0.12 ? pick(r, nats) : net.ip(r),
    mobileIp: net.ip(r),
    timezone: zone,
    devices,
    card: farm
      ? pick(r, farmCards)
      : r() < 0.05
        ? pick(r, familyCards)
        : r() < 0.7
          ? `card_${hex(r, 14)}`
          : null,
    ua: pick(r, BROWSERS),
    farm,
  };
}

/** The population: `people` end users with their devices, networks and cards (seeded). */
export function makePopulation(people = 4000, seed = 20261122): Population {
  const r = seededRandom(seed);
  const shared = sharedThings(r);
  const list: Person[] = [];
  for (let n = 0; n < people; n++) list.push(makePerson(r, n, shared));
  const scrapers = Array.from({ length: 25 }, (_, i) => ({
    ip: HOSTING(r),
    device: `d_${hex(r, 12)}`,
    ua: i % 5 === 4 ? null : pick(r, BOTS),
  }));
  return {
    people: list,
    scrapers,
    size: {
      people,
      devices: new Set(list.flatMap((p) => p.devices)).size,
      ips: new Set(list.flatMap((p) => [p.ip, p.mobileIp])).size,
      cards: new Set(list.map((p) => p.card).filter(Boolean)).size,
    },
  };
}
