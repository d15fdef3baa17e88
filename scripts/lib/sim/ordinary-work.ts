/**
 * Ordinary people who look like a farm to a rule that counts: a company's team signing up
 * with its own new domain from homes and phones in several countries, one VPN provider's
 * customers arriving from many addresses of its hosting network, and people whose email
 * handle looks machine-made. On a launch day all three are common, and none is an attack.
 */
import { BROWSERS } from "../end-users.ts";
import { type Actor, MINUTE } from "./journey.ts";
import {
  CGNAT,
  HOME,
  HOME_WEIGHTS,
  type Network,
  REMOTE_HOME,
  VPN_PROVIDERS,
  vpnExit,
} from "./networks.ts";
import { homePerson, newcomer, single } from "./ordinary-person.ts";
import { actorOf, type Params, type Population } from "./population.ts";
import type { Rng } from "./rng.ts";
import { card, deviceId, MOBILE_BROWSERS, nameOf } from "./world.ts";

const DESKTOP_BROWSERS = BROWSERS.filter((ua) => !MOBILE_BROWSERS.includes(ua));

/** A company's defaults; a world may set any of them (random-worlds.ts draws them). */
export const COMPANY_DEFAULTS = {
  /** People of one company in the hour, at least and at most. */
  size_min: 3,
  size_max: 30,
  /** Share of them at the office (one address), and on their phones (a carrier's CGNAT). */
  office: 0.15,
  phone: 0.2,
  /** How many countries its people live in (the company's own among them). */
  countries: 3,
  /** Share who sign up with a +alias (first.last+warden@company). */
  alias: 0.08,
};

// Words a company's name is made of (ordinary-work.test.ts: the names made are on no list).
const WORDS_A = `bright north swift clear iron silver blue open true deep green high stone cloud
  pixel quant terra nova polar acme`.split(/\s+/);
const WORDS_B = `loop forge labs works stack wave field path grid ledger harbor pine spark robotics
  metrics systems signal craft bridge scale`.split(/\s+/);

/** A company's own domain, made of words: brightloop.io, acme-robotics.com. */
export function companyDomain(r: Rng): string {
  const [a, b] = [r.pick(WORDS_A), r.pick(WORDS_B)];
  return r.chance(0.3) ? `${a}-${b}.com` : `${a}${b}.${r.pick(["io", "com", "dev", "co", "ai"])}`;
}

type Convention = "first.last" | "flast" | "first";

/** A colleague's local part in the company's convention, unique within `taken`. */
function localPart(r: Rng, convention: Convention, taken: Set<string>): string {
  for (;;) {
    const { first, last } = nameOf(r, 0);
    const made = {
      "first.last": `${first}.${last}`,
      flast: `${first[0]}${last}`,
      // Where first names are the address, the second of a name gets an initial.
      first: taken.has(first) ? `${first}${last[0]}` : first,
    }[convention];
    if (!taken.has(made)) {
      taken.add(made);
      return made;
    }
  }
}

/** Where one colleague is: the office, their phone, or home in one of the team's countries. */
type Place = Pick<Actor, "ip" | "zone" | "ua">;

/** The team's countries: the company's own (first) and others, their home networks. */
function teamNetworks(r: Rng, countries: number): Network[] {
  const own = r.weighted(HOME_WEIGHTS);
  const others = [...HOME, ...REMOTE_HOME].filter((net) => net.country !== own.country);
  const chosen = [own];
  while (chosen.length < countries && others.length > 0) {
    const [net] = others.splice(r.int(0, others.length - 1), 1) as [Network];
    if (!chosen.some((c) => c.country === net.country)) chosen.push(net);
  }
  return chosen;
}

function placeOf(r: Rng, p: typeof COMPANY_DEFAULTS, networks: Network[], office: Place): Place {
  const x = r.next();
  if (x < p.office) return office;
  const carriers = CGNAT.filter((c) => networks.some((net) => net.country === c.network.country));
  if (x < p.office + p.phone && carriers.length > 0) {
    const carrier = r.pick(carriers);
    return {
      ip: r.pick(carrier.addresses),
      zone: r.pick(carrier.network.zones),
      ua: r.pick(MOBILE_BROWSERS),
    };
  }
  // Half live in the company's own country, the others spread over the rest.
  const net = r.chance(0.5) ? (networks[0] as Network) : r.pick(networks);
  return { ip: net.ip(r), zone: r.pick(net.zones), ua: r.pick(DESKTOP_BROWSERS) };
}

export const companyTeam: Population = {
  name: "company_team",
  attack: false,
  share: 6,
  about:
    "a company's people signing up within the hour with its own new domain (first.last, flast or first; some +aliases), each on their own device: most from home in several countries, some on phones, a few from the office",
  group(r, n, start, _span, params?: Params) {
    const p = { ...COMPANY_DEFAULTS, ...params };
    const domain = companyDomain(r);
    const convention = r.pick<Convention>(["first.last", "flast", "first"]);
    const networks = teamNetworks(r, p.countries);
    const hq = networks[0] as Network;
    const office = { ip: hq.ip(r), zone: r.pick(hq.zones), ua: r.pick(DESKTOP_BROWSERS) };
    const taken = new Set<string>();
    const size = r.int(p.size_min, Math.max(p.size_min, p.size_max));
    return Array.from({ length: size }, (_, i) => {
      const local = localPart(r, convention, taken);
      const alias = r.chance(p.alias) ? `+${r.pick(["warden", "trial", "tools"])}` : "";
      const actor = actorOf(this, `${n}_${i}`, {
        userId: `u_${this.name}_${n}_${i}`,
        email: `${local}${alias}@${domain}`,
        device: deviceId(r),
        card: r.chance(0.4) ? card(r) : undefined,
        ...placeOf(r, p, networks, office),
      });
      // The link goes round the team's chat: most come within the first half hour.
      const at = start + Math.round(r.next() ** 1.5 * 45) * MINUTE;
      return newcomer(r, actor, at, { trial: 0.5, checkout: 0.15, promo: 0 });
    }).flat();
  },
};

/** A VPN provider's crowd's defaults; a world may set any of them. */
export const VPN_CROWD_DEFAULTS = {
  /** People of one provider in the hour, at least and at most. */
  size_min: 3,
  size_max: 12,
  /** Share who leave through an exit address another of them used this hour. */
  same_exit: 0.1,
};

export const vpnCrowd: Population = {
  name: "vpn_crowd",
  attack: false,
  share: 4,
  about:
    "customers of one commercial VPN provider signing up in the same hour through its hosting network (many /24s of one ASN), each on their own device, in their home time zone",
  group(r, n, start, _span, params?: Params) {
    const p = { ...VPN_CROWD_DEFAULTS, ...params };
    const provider = r.pick(VPN_PROVIDERS);
    const exits: string[] = [];
    const size = r.int(p.size_min, Math.max(p.size_min, p.size_max));
    return Array.from({ length: size }, (_, i) => {
      const ip = exits.length > 0 && r.chance(p.same_exit) ? r.pick(exits) : vpnExit(provider, r);
      exits.push(ip);
      // Where they live, not where the exit is: the exit's country is the VPN app's choice.
      const home = r.chance(0.8) ? r.weighted(HOME_WEIGHTS) : r.pick(REMOTE_HOME);
      const actor = homePerson(this, r, `${n}_${i}`, {
        ip,
        zone: r.pick(home.zones),
        ua: r.chance(0.25) ? r.pick(MOBILE_BROWSERS) : r.pick(DESKTOP_BROWSERS),
        typing: "human",
      });
      return newcomer(r, actor, start + r.int(0, 55) * MINUTE, {
        trial: 0.45,
        checkout: 0.2,
        promo: 0.1,
      });
    }).flat();
  },
};

const COMMON_PROVIDERS: [string, number][] = [
  ["gmail.com", 50],
  ["outlook.com", 12],
  ["yahoo.com", 10],
  ["hotmail.com", 8],
  ["icloud.com", 10],
  ["proton.me", 6],
  ["gmx.de", 4],
];

const TAG_WORDS = ["shadow", "dark", "frost", "pixel", "nova", "zero", "blaze", "ghost", "viper"];
const TAG_ENDS = ["wolf", "fox", "storm", "byte", "slayer", "ninja", "hawk", "rider", "x"];
const ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A local part that looks random or machine-made: gamer tags, k7q9z2x, jd1984, a3f9c2e1. */
export function oddLocalPart(r: Rng): string {
  const letter = () => String.fromCharCode(97 + r.int(0, 25));
  switch (r.int(0, 4)) {
    case 0:
      return `${r.pick(["", "xx", "the", "im"])}${r.pick(TAG_WORDS)}${r.pick(TAG_ENDS)}${r.chance(0.7) ? r.int(0, 9999) : ""}`;
    case 1:
      return Array.from({ length: r.int(6, 9) }, () => r.pick([...ALPHANUMERIC])).join("");
    case 2:
      return `${letter()}${letter()}${r.chance(0.5) ? letter() : ""}${r.int(10, 9999)}${r.chance(0.3) ? letter() + letter() : ""}`;
    case 3:
      return r.hex(r.int(8, 12));
    default:
      return `${letter()}${r.int(0, 9)}${letter()}${letter()}${r.int(10, 99)}${letter()}`;
  }
}

export const oddHandle = single(
  "odd_handle",
  3,
  "honest people whose email handle looks random or machine-made (gamer tags, k7q9z2x, jd1984, hex) at common providers",
  (pop, r, id) =>
    homePerson(pop, r, id, { email: `${oddLocalPart(r)}@${r.weighted(COMMON_PROVIDERS)}` }),
);
