/**
 * Where the simulated people are: real address ranges (each checked against the offline geo
 * data Warden uses: server/modules/screening/features/geo.ts, and networks.test.ts), with
 * their countries' time zones. Only 127.0.0.1 is ever contacted; these addresses are values
 * in the screening body.
 */
import type { Rng } from "./rng.ts";

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

/**
 * One hosting provider's address space, many /24s of one ASN: Hetzner (AS24940, on the
 * hosting list), three of its /16s (Finland and Germany). A burst spread over it comes from a
 * new /24 for every account.
 */
export const HETZNER = {
  asn: 24940,
  prefixes: [
    [95, 216],
    [65, 108],
    [135, 181],
  ] as const,
  /** An address in the /24 `a.b.c`. */
  ip: (subnet: string, r: Rng) => `${subnet}.${r.int(1, 254)}`,
  /** One of its /24s, as `a.b.c`. */
  subnet: (r: Rng) => `${r.pick(HETZNER.prefixes).join(".")}.${r.int(0, 255)}`,
};

/**
 * Home broadband in countries the other populations do not come from: where a company's remote
 * people live (Canada, the Netherlands, Poland, Spain, India, Brazil).
 */
export const REMOTE_HOME: Network[] = [
  {
    name: "rogers",
    country: "CA",
    zones: ["America/Toronto", "America/Vancouver"],
    ip: (r) => v4(99, [224, 255], r),
  }, // AS812
  { name: "ziggo", country: "NL", zones: ["Europe/Amsterdam"], ip: (r) => v4(84, [24, 31], r) }, // AS33915
  { name: "orange-pl", country: "PL", zones: ["Europe/Warsaw"], ip: (r) => v4(79, [184, 191], r) }, // AS5617
  { name: "movistar", country: "ES", zones: ["Europe/Madrid"], ip: (r) => v4(88, [0, 31], r) }, // AS3352
  { name: "airtel", country: "IN", zones: ["Asia/Kolkata"], ip: (r) => v4(122, [176, 176], r) }, // AS24560
  {
    name: "vivo",
    country: "BR",
    zones: ["America/Sao_Paulo"],
    ip: (r) => v4(179, [176, 187], r),
  }, // AS18881
];

/** One VPN provider's exits: /24s `a.b.c` with c in [lo, hi], all of one hosting ASN. */
export type VpnProvider = {
  name: string;
  asn: number;
  ranges: readonly (readonly [a: number, b: number, lo: number, hi: number])[];
};

/**
 * Commercial VPN providers' exit networks, each many /24s of one hosting ASN (networks.test.ts
 * checks every /24): M247 and Datacamp (CDN77) host the exits of many consumer VPNs. The
 * /24s are in many countries, so an exit is rarely where its user lives.
 */
export const VPN_PROVIDERS: readonly VpnProvider[] = [
  {
    name: "m247",
    asn: 9009,
    ranges: [
      [146, 70, 8, 215],
      [37, 120, 128, 159],
      [37, 120, 192, 223],
      [5, 157, 192, 223],
    ],
  },
  {
    name: "datacamp",
    asn: 60068,
    ranges: [
      [89, 187, 160, 191],
      [79, 127, 190, 255],
      [195, 181, 160, 175],
    ],
  },
  {
    name: "datacamp-eu",
    asn: 212238,
    ranges: [
      [149, 102, 224, 255],
      [85, 122, 192, 228],
    ],
  },
];

/** An exit address of `provider`: one of its /24s, then an address in it. */
export function vpnExit(provider: VpnProvider, r: Rng): string {
  const [a, b, lo, hi] = r.pick(provider.ranges);
  return `${a}.${b}.${r.int(lo, hi)}.${r.int(1, 254)}`;
}
