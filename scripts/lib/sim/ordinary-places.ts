/**
 * Ordinary people where they are: networks, addresses and devices shared by many (CGNAT, an
 * office, a campus, a family laptop) or far from home (travel, VPNs). Naive rules on IPs,
 * devices and time zones trip on them.
 */
import { MINUTE } from "./journey.ts";
import { CAMPUSES, CGNAT, CONSUMER_VPN, CORPORATE_VPN, HOME, OFFICES } from "./networks.ts";
import { homePerson, newcomer, single } from "./ordinary-person.ts";
import type { Population } from "./population.ts";
import { card, MOBILE_BROWSERS, nameOf } from "./world.ts";

export const homeBroadband = single(
  "home_broadband",
  22,
  "people at home on their own broadband line",
  (pop, r, id) => homePerson(pop, r, id),
);

export const mobileCgnat = single(
  "mobile_cgnat",
  12,
  "phones on a carrier's CGNAT: thousands of people behind a few IPv4 addresses",
  (pop, r, id) => {
    const carrier = r.pick(CGNAT);
    return homePerson(pop, r, id, {
      ip: r.pick(carrier.addresses),
      zone: r.pick(carrier.network.zones),
      ua: r.pick(MOBILE_BROWSERS),
    });
  },
);

export const officeOnboarding: Population = {
  name: "office_onboarding",
  attack: false,
  share: 6,
  about: "a team of 8-25 signing up from one office NAT within the hour, work emails",
  group(r, n, start) {
    const office = OFFICES[n % OFFICES.length] as (typeof OFFICES)[number];
    const size = r.int(8, 25);
    return Array.from({ length: size }, (_, i) => {
      const actor = homePerson(this, r, `${n}_${i}`, {
        ip: office.address,
        zone: r.pick(office.zones),
        email: nameOf(r, i, office.domain).email,
        card: undefined,
      });
      return newcomer(r, actor, start + r.int(0, 40) * MINUTE, {
        trial: 0.35,
        checkout: 0.05,
        promo: 0,
      });
    }).flat();
  },
};

export const universityNat: Population = {
  name: "university_nat",
  attack: false,
  share: 6,
  about: "students on a campus network behind two NAT addresses, a class signing up together",
  group(r, n, start) {
    const campus = CAMPUSES[n % CAMPUSES.length] as (typeof CAMPUSES)[number];
    const size = r.int(6, 20);
    return Array.from({ length: size }, (_, i) => {
      const actor = homePerson(this, r, `${n}_${i}`, {
        ip: r.pick(campus.addresses),
        zone: r.pick(campus.zones),
        email: r.chance(0.6) ? nameOf(r, i, campus.domain).email : nameOf(r, i).email,
      });
      return newcomer(r, actor, start + r.int(0, 50) * MINUTE, { trial: 0.6, promo: 0.2 });
    }).flat();
  },
};

export const householdShared: Population = {
  name: "household_shared",
  attack: false,
  share: 5,
  about: "2-4 people of one family on one laptop, one home IP and one card",
  // A world may make households larger: params.size_max (2 to 6 in random worlds).
  group(r, n, start, _span, params) {
    const first = homePerson(this, r, `${n}_0`, { card: card(r) });
    const size = r.int(2, params?.size_max ?? 4);
    return Array.from({ length: size }, (_, i) => {
      const actor = {
        ...first,
        id: `${this.name}:${n}_${i}`,
        userId: `u_${this.name}_${n}_${i}`,
        email: nameOf(r, i).email,
      };
      return newcomer(r, actor, start + i * r.int(5, 20) * MINUTE, { trial: 0.5, checkout: 0.4 });
    }).flat();
  },
};

export const traveller = single(
  "traveller",
  4,
  "travellers: home time zone, hotel or roaming IP in another country",
  (pop, r, id) => {
    const home = r.pick(HOME);
    const away = r.pick(HOME.filter((net) => net.country !== home.country));
    return homePerson(pop, r, id, { ip: away.ip(r), zone: r.pick(home.zones) });
  },
);

export const consumerVpn = single(
  "consumer_vpn",
  3,
  "privacy VPN users: a commercial VPN exit on a hosting network, home time zone",
  (pop, r, id) =>
    homePerson(pop, r, id, { ip: r.pick(CONSUMER_VPN), zone: r.pick(r.pick(HOME).zones) }),
);

export const corporateVpn = single(
  "corporate_vpn",
  4,
  "employees worldwide behind a corporate VPN exit (Zscaler, US)",
  (pop, r, id) =>
    homePerson(pop, r, id, {
      ip: r.pick(CORPORATE_VPN),
      zone: r.pick([
        "America/New_York",
        "Europe/London",
        "Europe/Berlin",
        "Asia/Kolkata",
        "Asia/Tokyo",
      ]),
      email: nameOf(r, r.int(0, 1e6), "megacorp.com").email,
    }),
);
