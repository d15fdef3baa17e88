/**
 * The world the simulated people live in: real address ranges (each checked against the
 * offline geo data Warden uses: server/modules/screening/features/geo.ts), their time zones,
 * browsers, names, email providers, and how a person fills a form as the collector sees it.
 * Only 127.0.0.1 is ever contacted; these addresses are values in the screening body.
 */
import type { Behavior, CollectInput } from "../../../shared/schemas/collect.ts";
import type { Rng } from "./rng.ts";

export const SHOP = "https://shop.example.com";

/** A network and the time zones of its country. */
export type Network = { name: string; country: string; zones: string[]; ip: (r: Rng) => string };

const v4 = (a: number, b: [number, number], r: Rng) =>
  `${a}.${r.int(b[0], b[1])}.${r.int(0, 255)}.${r.int(1, 254)}`;

/** Home broadband, by country (the ASN in each comment is what the offline data says). */
export const HOME: Network[] = [
  {
    name: "comcast",
    country: "US",
    zones: ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"],
    ip: (r) => v4(73, [0, 255], r),
  }, // AS7922
  {
    name: "att-v6",
    country: "US",
    zones: ["America/New_York", "America/Chicago", "America/Los_Angeles"],
    ip: (r) => `2600:1700:${r.hex(4)}:${r.hex(4)}::${r.hex(3)}`,
  }, // AS7018
  { name: "bt", country: "GB", zones: ["Europe/London"], ip: (r) => v4(86, [128, 191], r) }, // AS2856
  { name: "telekom", country: "DE", zones: ["Europe/Berlin"], ip: (r) => v4(91, [0, 63], r) }, // AS3320
  { name: "orange", country: "FR", zones: ["Europe/Paris"], ip: (r) => v4(90, [0, 63], r) }, // AS3215
  { name: "softbank", country: "JP", zones: ["Asia/Tokyo"], ip: (r) => v4(126, [0, 255], r) }, // AS17676
  {
    name: "telstra",
    country: "AU",
    zones: ["Australia/Sydney", "Australia/Melbourne"],
    ip: (r) => v4(1, [144, 144], r),
  }, // AS1221
];
export const HOME_WEIGHTS: [Network, number][] = HOME.map((n, i) => [
  n,
  [40, 10, 14, 12, 10, 6, 8][i] ?? 1,
]);

/** Mobile carriers' carrier-grade NAT: thousands of phones behind a few public addresses. */
export const CGNAT: { network: Network; addresses: string[] }[] = [
  {
    network: {
      name: "t-mobile-us",
      country: "US",
      zones: ["America/New_York", "America/Chicago", "America/Los_Angeles"],
      ip: () => "",
    },
    addresses: ["172.56.21.14", "172.56.21.87", "172.58.140.9", "172.58.140.66"],
  }, // AS21928
  {
    network: { name: "jio", country: "IN", zones: ["Asia/Kolkata"], ip: () => "" },
    addresses: ["49.36.12.5", "49.36.12.190", "49.37.77.3"],
  }, // AS55836
  {
    network: { name: "three-uk", country: "GB", zones: ["Europe/London"], ip: () => "" },
    addresses: ["92.40.170.21", "92.40.171.4"],
  }, // AS206067
  {
    network: { name: "free-mobile", country: "FR", zones: ["Europe/Paris"], ip: () => "" },
    addresses: ["37.173.44.12", "37.173.44.200"],
  }, // AS51207
];

/** Universities: a campus behind a handful of NAT addresses. */
export const CAMPUSES = [
  {
    name: "stanford",
    country: "US",
    zones: ["America/Los_Angeles"],
    addresses: ["171.64.168.10", "171.64.168.11"],
    domain: "stanford.edu",
  }, // AS32
  {
    name: "berkeley",
    country: "US",
    zones: ["America/Los_Angeles"],
    addresses: ["128.32.22.40"],
    domain: "berkeley.edu",
  }, // AS25
  {
    name: "cambridge",
    country: "GB",
    zones: ["Europe/London"],
    addresses: ["131.111.5.70", "131.111.5.71"],
    domain: "cam.ac.uk",
  }, // AS786 (Jisc)
];

/** Offices: one business line each (AT&T business AS7018, Deutsche Telekom AS3320). */
export const OFFICES = [
  {
    name: "acme",
    country: "US",
    zones: ["America/New_York"],
    address: "12.34.56.7",
    domain: "acme-corp.com",
  },
  {
    name: "globex",
    country: "US",
    zones: ["America/Chicago"],
    address: "12.161.40.21",
    domain: "globex.io",
  },
  {
    name: "initech",
    country: "DE",
    zones: ["Europe/Berlin"],
    address: "80.150.12.33",
    domain: "initech.de",
  },
];

/** Corporate VPN exits (Zscaler, AS22616): employees of many countries leave through the US. */
export const CORPORATE_VPN = ["165.225.8.14", "165.225.8.15", "165.225.38.90"];
/** Consumer VPN exits, on hosting networks: M247 (RO), Datacamp (US, JP). */
export const CONSUMER_VPN = ["193.176.84.23", "185.156.46.140", "185.156.46.141", "89.187.160.7"];
/** iCloud Private Relay egress (Akamai AS20940): not a hosting network. */
export const PRIVATE_RELAY = (r: Rng) => `172.224.${r.int(200, 239)}.${r.int(1, 254)}`;
/** Datacenters: AWS, DigitalOcean, OVH, Hetzner, Vultr (all on the hosting list). */
export const DATACENTER = (r: Rng) =>
  r.pick([
    () => v4(3, [80, 95], r),
    () => `167.99.${r.int(0, 255)}.${r.int(1, 254)}`,
    () => `51.68.${r.int(0, 255)}.${r.int(1, 254)}`,
    () => `95.216.${r.int(0, 255)}.${r.int(1, 254)}`,
    () => `45.77.${r.int(0, 255)}.${r.int(1, 254)}`,
  ])();

export const BROWSERS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
];
export const MOBILE_BROWSERS = BROWSERS.slice(2, 4);
export const OLD_BROWSERS = [
  "Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko",
  "Mozilla/5.0 (Windows NT 5.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.112 Safari/537.36",
  "Mozilla/5.0 (iPad; CPU OS 9_3_5 like Mac OS X) AppleWebKit/601.1.46 (KHTML, like Gecko) Version/9.0 Mobile/13G36 Safari/601.1",
  "Mozilla/5.0 (Linux; U; Android 4.4.2; en-us; SM-T230 Build/KOT49H) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Safari/534.30",
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
  "fatima",
  "wei",
  "chloe",
  "mateo",
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
  "walker",
  "young",
  "nguyen",
  "kowalski",
  "dubois",
];
const PROVIDERS: [string, number][] = [
  ["gmail.com", 45],
  ["yahoo.com", 9],
  ["outlook.com", 10],
  ["hotmail.com", 7],
  ["icloud.com", 9],
  ["proton.me", 4],
  ["gmx.de", 4],
  ["orange.fr", 3],
];

/** A person's name and a personal address at a common provider (or `domain`). */
export function nameOf(r: Rng, n: number, domain?: string) {
  const first = r.pick(FIRST);
  const last = r.pick(LAST);
  const local = r.pick([
    `${first}.${last}`,
    `${first}${last}${n % 100}`,
    `${first[0]}${last}`,
    `${first}.${last}${1960 + (n % 45)}`,
  ]);
  return { first, last, email: `${local}@${domain ?? r.weighted(PROVIDERS)}` };
}

/** A collector device id (the shape warden.js sends). */
export const deviceId = (r: Rng) => `wd1_${r.hex(28)}`;
export const card = (r: Rng) => `card_${r.hex(16)}`;

/** How a form was filled, as the collector measures it. */
export type Typing = "human" | "fast" | "autofill" | "keyboard_only" | "none";

export function behaviorOf(r: Rng, typing: Typing): Behavior | undefined {
  switch (typing) {
    case "human":
      return {
        time_to_submit_ms: r.int(6_000, 45_000),
        pointer_events: r.int(8, 90),
        key_events: r.int(18, 70),
        key_interval_sd_ms: r.int(45, 220),
        paste_count: r.chance(0.1) ? 1 : 0,
      };
    case "fast":
      return {
        time_to_submit_ms: r.int(2_200, 6_000),
        pointer_events: r.int(3, 30),
        key_events: r.int(18, 50),
        key_interval_sd_ms: r.int(25, 90),
        paste_count: 0,
      };
    case "autofill":
      // A password manager fills every field; the person clicks once and submits.
      return {
        time_to_submit_ms: r.int(450, 2_400),
        pointer_events: r.int(1, 12),
        key_events: r.int(0, 2),
        key_interval_sd_ms: null,
        paste_count: r.int(0, 2),
      };
    case "keyboard_only":
      // A screen reader or keyboard user: no pointer at all, tabbing through fields.
      return {
        time_to_submit_ms: r.int(15_000, 90_000),
        pointer_events: 0,
        key_events: r.int(30, 120),
        key_interval_sd_ms: r.int(80, 400),
        paste_count: 0,
      };
    default:
      return undefined;
  }
}

/** What warden.js would send from a page, for a person. */
export function collectOf(
  r: Rng,
  device: string,
  zone: string,
  path: string,
  typing: Typing,
  webdriver = false,
): CollectInput {
  const behavior = behaviorOf(r, typing);
  return {
    device_id: device,
    timezone: zone,
    url: `${SHOP}${path}`,
    referrer: `${SHOP}/pricing`,
    webdriver,
    ...(behavior ? { behavior } : {}),
  };
}
