/**
 * Screening traffic for `npm run bench:screen`: a seeded population of end users (people,
 * their devices, home networks, cards and time zones; a few families and NATs sharing devices
 * and addresses; an account farm sharing devices, cards and two hosting addresses; a few
 * scrapers and bots) and an endless stream of POST /api/v1/screen bodies over them, in a
 * request-heavy mix. Same seed, same stream.
 */
import type { ScreenInput, ScreenType } from "../../shared/schemas/screening.ts";
import { seededRandom } from "./seeded-random.ts";

export const SHOP = "https://shop.example.com";

/** Residential networks whose country the offline IP data knows, with that country's zones. */
const NETWORKS: { weight: number; ip: (r: () => number) => string; zones: string[] }[] = [
  {
    weight: 30, // Comcast, US
    ip: (r) => `73.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    zones: ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"],
  },
  {
    weight: 8, // AT&T, US, IPv6
    ip: (r) => `2600:1700:${hex(r, 4)}:${hex(r, 4)}::${hex(r, 3)}`,
    zones: ["America/New_York", "America/Chicago", "America/Los_Angeles"],
  },
  {
    weight: 12, // BT, GB
    ip: (r) => `86.${int(r, 128, 191)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    zones: ["Europe/London"],
  },
  {
    weight: 10, // Deutsche Telekom, DE
    ip: (r) => `91.${int(r, 0, 63)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    zones: ["Europe/Berlin"],
  },
  {
    weight: 4, // Vodafone, DE, IPv6
    ip: (r) => `2a02:8109:${hex(r, 4)}:${hex(r, 4)}::${hex(r, 3)}`,
    zones: ["Europe/Berlin"],
  },
  {
    weight: 10, // Orange, FR
    ip: (r) => `90.${int(r, 0, 127)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    zones: ["Europe/Paris"],
  },
  {
    weight: 8, // Reliance Jio, IN
    ip: (r) => `49.${int(r, 32, 47)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    zones: ["Asia/Kolkata"],
  },
  {
    weight: 6, // SoftBank, JP
    ip: (r) => `126.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    zones: ["Asia/Tokyo"],
  },
];
/** Hosting addresses (AWS, Google Cloud): where farms and scrapers run. */
const HOSTING = (r: () => number) =>
  r() < 0.6
    ? `3.${int(r, 80, 95)}.${int(r, 0, 255)}.${int(r, 1, 254)}`
    : `34.120.${int(r, 0, 255)}.${int(r, 1, 254)}`;
const ALL_ZONES = [...new Set(NETWORKS.flatMap((n) => n.zones)), "Asia/Singapore"];

const BROWSERS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
];
const BOTS = [
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "python-requests/2.32.3",
  "curl/8.7.1",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
];
const FIRST = [
  "james",
  "mary",
  "john",
  "patricia",
  "robert",
  "jennifer",
  "michael",
  "linda",
  "david",
  "elizabeth",
  "william",
  "barbara",
  "richard",
  "susan",
  "joseph",
  "jessica",
  "thomas",
  "sarah",
  "carlos",
  "maria",
  "lukas",
  "sophie",
  "pierre",
  "camille",
  "arjun",
  "priya",
  "yuki",
  "haruto",
  "oliver",
  "amelia",
  "noah",
  "emma",
  "liam",
  "olivia",
  "ana",
  "joao",
];
const LAST = [
  "smith",
  "johnson",
  "williams",
  "brown",
  "jones",
  "garcia",
  "miller",
  "davis",
  "martin",
  "bernard",
  "muller",
  "schmidt",
  "schneider",
  "sharma",
  "patel",
  "tanaka",
  "sato",
  "silva",
  "santos",
  "taylor",
  "wilson",
  "moore",
  "clark",
  "lewis",
  "walker",
  "hall",
  "young",
];
const DOMAINS: [string, number][] = [
  ["gmail.com", 40],
  ["yahoo.com", 10],
  ["outlook.com", 10],
  ["hotmail.com", 8],
  ["icloud.com", 8],
  ["proton.me", 4],
  ["gmx.de", 4],
  ["orange.fr", 4],
  ["acme-corp.com", 6],
  ["mailinator.com", 2],
  ["yopmail.com", 2],
  ["guerrillamail.com", 2],
];
const PAGES = ["/", "/pricing", "/products", "/products/42", "/cart", "/account", "/blog/launch"];
const PROMOS: [string, number][] = [
  ["WELCOME10", 40],
  ["SPRING25", 15],
  ["FREESHIP", 15],
  ["FRIEND5", 10],
  ...Array.from({ length: 20 }, (_, i) => [`CREATOR${i + 1}`, 1] as [string, number]),
];

const int = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const hex = (r: () => number, digits: number) =>
  Math.floor(r() * 16 ** digits)
    .toString(16)
    .padStart(digits, "0");
const pick = <T>(r: () => number, list: readonly T[]): T =>
  list[Math.floor(r() * list.length)] as T;
function weighted<T>(r: () => number, list: readonly [T, number][]): T {
  const total = list.reduce((sum, [, w]) => sum + w, 0);
  let x = r() * total;
  for (const [item, w] of list) {
    x -= w;
    if (x < 0) return item;
  }
  return (list.at(-1) as [T, number])[0];
}
/** Skewed pick: a few members are very active, most are not (about Zipf-like). */
const skewed = <T>(r: () => number, list: readonly T[]): T =>
  list[Math.floor(r() ** 2.2 * list.length)] as T;

type Person = {
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

function emailFor(r: () => number, n: number): { email: string; aliases: string[] } {
  const domain = weighted(r, DOMAINS);
  const first = pick(r, FIRST);
  const last = pick(r, LAST);
  // About 3% random-looking local parts (what rule_entropy looks for).
  const local =
    r() < 0.03
      ? Array.from({ length: int(r, 9, 14) }, () =>
          pick(r, [..."bcdfghjklmnpqrstvwxz0123456789"]),
        ).join("")
      : pick(r, [`${first}.${last}${n}`, `${first}${last}${n % 97}`, `${first[0]}${last}${n}`]);
  const aliases =
    domain === "gmail.com"
      ? [`${local.replace(".", "")}+promo@gmail.com`, `${local.split("").join(".")}@googlemail.com`]
      : [];
  return { email: `${local}@${domain}`, aliases };
}

/** The population: `people` end users with their devices, networks and cards (seeded). */
export function makePopulation(people = 4000, seed = 20261122): Population {
  const r = seededRandom(seed);
  const network = (p: number) => {
    let x = p * NETWORKS.reduce((s, n) => s + n.weight, 0);
    for (const n of NETWORKS) {
      x -= n.weight;
      if (x < 0) return n;
    }
    return NETWORKS[0] as (typeof NETWORKS)[number];
  };
  // Shared things: 150 NAT/office addresses (a few people each, several in one /24),
  // 120 family devices, 60 family cards.
  const natBase = Array.from({ length: 30 }, () => network(r()).ip(r));
  const nats = natBase.flatMap((ip) =>
    ip.includes(":")
      ? Array.from({ length: 5 }, (_, i) => ip.replace(/::[0-9a-f]+$/, `::${i + 1}`))
      : Array.from({ length: 5 }, (_, i) => ip.replace(/\.\d+$/, `.${10 + i}`)),
  );
  const familyDevices = Array.from({ length: 120 }, () => `d_${hex(r, 12)}`);
  const familyCards = Array.from({ length: 60 }, () => `card_${hex(r, 14)}`);
  // The farm: 60 accounts on 6 devices, 4 cards, 2 hosting addresses.
  const farmDevices = Array.from({ length: 6 }, () => `d_${hex(r, 12)}`);
  const farmCards = Array.from({ length: 4 }, () => `card_${hex(r, 14)}`);
  const farmIps = [HOSTING(r), HOSTING(r)];

  const list: Person[] = [];
  for (let n = 0; n < people; n++) {
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
    list.push({
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
    });
  }
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

/** The mix (weights): request-heavy, like a storefront. */
export const MIX: [ScreenType, number][] = [
  ["request", 55],
  ["login", 14],
  ["checkout", 10],
  ["signup", 7],
  ["promo_redemption", 6],
  ["trial_start", 5],
  ["referral", 3],
];

/**
 * An endless stream of screening bodies (JSON strings). Signups bring new people (fresh
 * user ids and emails) on the population's networks and, now and then, its shared devices.
 */
export function screenStream(pop: Population, seed = 7, label = "s") {
  const r = seededRandom(seed);
  let fresh = 0;
  const counts: Record<string, number> = {};
  const next = (): ScreenInput => {
    const type = weighted(r, MIX);
    counts[type] = (counts[type] ?? 0) + 1;
    const person = skewed(r, pop.people);
    const ip = r() < 0.25 ? person.mobileIp : person.ip;
    const device = pick(r, person.devices);
    const web = {
      ip,
      user_agent: person.ua,
      device_id: device,
      timezone: person.timezone,
      origin: r() < 0.02 ? "https://coupons.example.net" : SHOP,
    };
    switch (type) {
      case "request": {
        if (r() < 0.12) {
          const s = pick(r, pop.scrapers);
          return {
            type,
            ip: s.ip,
            device_id: s.device,
            ...(s.ua ? { user_agent: s.ua } : {}),
            url: `${SHOP}${pick(r, PAGES)}`,
          };
        }
        return {
          type,
          ...(r() < 0.6 ? { user_id: person.userId } : {}),
          ip,
          user_agent: person.ua,
          device_id: device,
          url: `${SHOP}${pick(r, PAGES)}`,
          ...(r() < 0.5 ? { referrer: r() < 0.9 ? SHOP : "https://www.google.com/" } : {}),
        };
      }
      case "signup": {
        // A new person; a farm member or a family device now and then.
        const n = fresh++;
        const { email } = emailFor(r, 1_000_000 + n);
        const other = skewed(r, pop.people);
        return {
          type,
          user_id: `${label}_new_${n.toString(36)}`,
          email,
          ...web,
          ip: r() < 0.3 ? other.ip : web.ip,
          device_id: r() < 0.15 ? pick(r, other.devices) : `d_new_${label}_${n.toString(36)}`,
          url: `${SHOP}/signup`,
        };
      }
      case "login":
        return { type, user_id: person.userId, email: person.email, ...web, url: `${SHOP}/login` };
      case "trial_start":
        return {
          type,
          user_id: person.userId,
          email: person.farm && person.aliases.length ? pick(r, person.aliases) : person.email,
          ...web,
          ...(person.card ? { card_fingerprint: person.card } : {}),
          url: `${SHOP}/trial`,
        };
      case "promo_redemption":
        return {
          type,
          user_id: person.userId,
          email: r() < 0.3 && person.aliases.length ? pick(r, person.aliases) : person.email,
          ...web,
          promo_code: weighted(r, PROMOS),
          ...(person.card ? { card_fingerprint: person.card } : {}),
          url: `${SHOP}/cart`,
        };
      case "referral": {
        const referrer = person.farm ? person : skewed(r, pop.people);
        const n = fresh++;
        return {
          type,
          user_id: `${label}_new_${n.toString(36)}`,
          email: emailFor(r, 2_000_000 + n).email,
          ...web,
          referral_code: `ref_${referrer.userId}`,
          referrer_user_id: referrer.userId,
          url: `${SHOP}/invite`,
        };
      }
      default:
        return {
          type: "checkout",
          user_id: person.userId,
          email: person.email,
          ...web,
          ...(person.card || r() < 0.5
            ? { card_fingerprint: person.card ?? `card_${hex(r, 14)}` }
            : {}),
          amount: int(r, 5, 400) * 100 - 1,
          currency: person.timezone.startsWith("Europe") ? "eur" : "usd",
          url: `${SHOP}/checkout`,
        };
    }
  };
  return { next: () => JSON.stringify(next()), counts };
}
