/**
 * Ordinary traffic: the people a merchant wants, each population a reality that trips naive
 * rules (shared addresses, shared devices, odd time zones, relay emails, password managers,
 * no JavaScript). Every event here is labelled ordinary; any block of one is a false positive.
 */
import { type Actor, browsing, eventOf, HOUR, MINUTE, type SimEvent } from "./journey.ts";
import { actorOf, type Population } from "./population.ts";
import { legitRefund } from "./refunds.ts";
import type { Rng } from "./rng.ts";
import {
  BROWSERS,
  CAMPUSES,
  CGNAT,
  CONSUMER_VPN,
  CORPORATE_VPN,
  card,
  deviceId,
  HOME,
  HOME_WEIGHTS,
  MOBILE_BROWSERS,
  nameOf,
  OFFICES,
  OLD_BROWSERS,
  PRIVATE_RELAY,
} from "./world.ts";

/** The public launch code posted on social media, and a code every new customer gets. */
export const LAUNCH_CODE = "LAUNCH50";
export const WELCOME_CODE = "WELCOME20";

type Plan = { trial?: number; checkout?: number; promo?: number; code?: string };

/** A new customer: a few pages, a signup, maybe a trial, a promo code, a checkout. */
function newcomer(r: Rng, actor: Actor, start: number, plan: Plan = {}): SimEvent[] {
  const events = browsing(r, actor, start - 4 * MINUTE, start, r.int(1, 3));
  events.push(eventOf(r, actor, "signup", start));
  let t = start + r.int(1, 6) * MINUTE;
  if (r.chance(plan.trial ?? 0.5)) {
    events.push(eventOf(r, actor, "trial_start", t));
    t += r.int(2, 10) * MINUTE;
  }
  if (r.chance(plan.promo ?? 0.15)) {
    events.push(
      eventOf(r, actor, "promo_redemption", t, { promo_code: plan.code ?? WELCOME_CODE }),
    );
    t += r.int(1, 3) * MINUTE;
  }
  if (r.chance(plan.checkout ?? 0.25))
    events.push(eventOf(r, actor, "checkout", t, { amount: r.int(9, 99) * 100, currency: "usd" }));
  events.push(...browsing(r, actor, start, t + 10 * MINUTE, r.int(1, 4)));
  return events;
}

/** A person at home on one of the residential networks. */
function homePerson(pop: Population, r: Rng, id: string, overrides: Partial<Actor> = {}): Actor {
  const net = r.weighted(HOME_WEIGHTS);
  const n = r.int(0, 1e6);
  return actorOf(pop, id, {
    userId: `u_${pop.name}_${id}`,
    email: nameOf(r, n).email,
    ip: net.ip(r),
    zone: r.pick(net.zones),
    device: deviceId(r),
    ua: r.pick(BROWSERS),
    card: r.chance(0.7) ? card(r) : undefined,
    typing: r.chance(0.8) ? "human" : "fast",
    ...overrides,
  });
}

const single = (
  name: string,
  share: number,
  about: string,
  make: (pop: Population, r: Rng, id: string) => Actor,
  plan?: (r: Rng) => Plan,
): Population => {
  const pop: Population = {
    name,
    attack: false,
    share,
    about,
    group: (r, n, start) => newcomer(r, make(pop, r, String(n)), start, plan?.(r)),
  };
  return pop;
};

const homeBroadband = single(
  "home_broadband",
  22,
  "people at home on their own broadband line",
  (pop, r, id) => homePerson(pop, r, id),
);

const mobileCgnat = single(
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

const officeOnboarding: Population = {
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

const universityNat: Population = {
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

const householdShared: Population = {
  name: "household_shared",
  attack: false,
  share: 5,
  about: "2-4 people of one family on one laptop, one home IP and one card",
  group(r, n, start) {
    const first = homePerson(this, r, `${n}_0`, { card: card(r) });
    const size = r.int(2, 4);
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

const traveller = single(
  "traveller",
  4,
  "travellers: home time zone, hotel or roaming IP in another country",
  (pop, r, id) => {
    const home = r.pick(HOME);
    const away = r.pick(HOME.filter((net) => net.country !== home.country));
    return homePerson(pop, r, id, { ip: away.ip(r), zone: r.pick(home.zones) });
  },
);

const consumerVpn = single(
  "consumer_vpn",
  3,
  "privacy VPN users: a commercial VPN exit on a hosting network, home time zone",
  (pop, r, id) =>
    homePerson(pop, r, id, { ip: r.pick(CONSUMER_VPN), zone: r.pick(r.pick(HOME).zones) }),
);

const corporateVpn = single(
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

const RELAYS = [
  "privaterelay.appleid.com",
  "mozmail.com",
  "duck.com",
  "simplelogin.com",
  "aleeas.com",
];
const privacyRelay = single(
  "privacy_relay_email",
  5,
  "Hide My Email, Firefox Relay, DuckDuckGo, SimpleLogin: random-looking relay addresses (Private Relay IPs for some)",
  (pop, r, id) => {
    const domain = r.pick(RELAYS);
    const local =
      domain === "privaterelay.appleid.com"
        ? `${r.hex(10).replace(/[0-9]/g, (d) => "kmpqrstvwx"[Number(d)] ?? "k")}`
        : domain === "duck.com"
          ? `${r.pick(["quick", "brave", "amber", "lucky", "swift"])}-${r.pick(["otter", "fox", "heron", "maple"])}-${r.pick(["river", "stone", "cloud"])}`
          : `${r.hex(8)}`;
    return homePerson(pop, r, id, {
      email: `${local}@${domain}`,
      ...(domain === "privaterelay.appleid.com" && r.chance(0.6)
        ? { ip: PRIVATE_RELAY(r), ua: BROWSERS[1] as string }
        : {}),
    });
  },
);

const plusAndDots = single(
  "plus_and_dots",
  4,
  "one account each, written with Gmail dots or +tags (name+shop@gmail.com)",
  (pop, r, id) => {
    const { first, last } = nameOf(r, 0);
    const email = r.chance(0.5)
      ? `${first}.${last}+shop@gmail.com`
      : `${first.split("").join(".")}${last}@gmail.com`;
    return homePerson(pop, r, id, { email });
  },
);

const launchPromo: Population = {
  name: "launch_promo",
  attack: false,
  share: 14,
  about: `honest customers redeeming ${LAUNCH_CODE}, posted on social media: a burst of hundreds an hour`,
  group(r, n, _start, span) {
    // The post goes out a fifth into the window; most people come within the next 20 minutes.
    const at = span * 0.2 + Math.abs(r.next() + r.next() + r.next() - 1.5) * 15 * MINUTE;
    const onPhone = r.chance(0.35);
    const carrier = r.pick(CGNAT);
    const actor = homePerson(
      this,
      r,
      String(n),
      onPhone
        ? {
            ip: r.pick(carrier.addresses),
            zone: r.pick(carrier.network.zones),
            ua: r.pick(MOBILE_BROWSERS),
          }
        : {},
    );
    return newcomer(r, actor, at, { trial: 0.1, promo: 1, code: LAUNCH_CODE, checkout: 0.6 });
  },
};

const returning: Population = {
  name: "returning_customer",
  attack: false,
  share: 8,
  about: "existing customers: logins, browsing, repeat checkouts with their own card",
  group(r, n, start) {
    const actor = homePerson(this, r, String(n), { card: card(r) });
    const events = [
      eventOf(r, actor, "login", start),
      ...browsing(r, actor, start, start + 20 * MINUTE, r.int(2, 8)),
    ];
    if (r.chance(0.5))
      events.push(
        eventOf(r, actor, "checkout", start + r.int(5, 25) * MINUTE, {
          amount: r.int(9, 99) * 100,
          currency: "usd",
        }),
      );
    if (r.chance(0.2)) events.push(eventOf(r, actor, "login", start + r.int(30, 55) * MINUTE));
    return events;
  },
};

const retryTypo: Population = {
  name: "retry_typo",
  attack: false,
  share: 3,
  about: "people who mistype their email and sign up again, or press start trial twice",
  group(r, n, start) {
    const actor = homePerson(this, r, String(n));
    const typo = {
      ...actor,
      email: actor.email
        .replace("@gmail.com", "@gmial.com")
        .replace("@yahoo.com", "@yaho.com")
        .replace(/^(\w)/, "$1$1"),
    };
    const events = [
      eventOf(r, typo, "signup", start),
      eventOf(r, actor, "signup", start + r.int(1, 4) * MINUTE),
    ];
    const trial = start + r.int(5, 9) * MINUTE;
    events.push(
      eventOf(r, actor, "trial_start", trial),
      eventOf(r, actor, "trial_start", trial + r.int(2, 30) * 1000),
    );
    if (r.chance(0.4))
      events.push(
        eventOf(r, actor, "checkout", trial + 5 * MINUTE, { amount: 1900, currency: "usd" }),
        eventOf(r, actor, "checkout", trial + 5 * MINUTE + 20_000, {
          amount: 1900,
          currency: "usd",
        }),
      );
    return events;
  },
};

const single2 = (
  name: string,
  share: number,
  about: string,
  overrides: (r: Rng) => Partial<Actor>,
) => single(name, share, about, (pop, r, id) => homePerson(pop, r, id, overrides(r)));

const passwordManager = single2(
  "password_manager",
  4,
  "password managers and paste: forms filled in about a second, few key presses",
  () => ({ typing: "autofill" }),
);
const keyboardOnly = single2(
  "keyboard_only",
  2,
  "screen-reader and keyboard-only users: no pointer events, slow",
  () => ({ typing: "keyboard_only" }),
);
const clockSkew = single2(
  "clock_skew_utc",
  2,
  "browsers reporting UTC (clock set wrong, Firefox resistFingerprinting)",
  (r) => ({ zone: r.pick(["UTC", "Etc/UTC", "Etc/GMT"]) }),
);
const noCollector = single2(
  "no_collector",
  3,
  "warden.js blocked by an extension: no device, time zone or behaviour",
  () => ({ collector: false }),
);
const oldBrowser: Population = single(
  "old_browser",
  2,
  "old browsers (IE 11, Chrome 49 on XP, iOS 9): collector without behaviour",
  (pop, r, id) => homePerson(pop, r, id, { ua: r.pick(OLD_BROWSERS), typing: "none" }),
);

export const ORDINARY: readonly Population[] = [
  homeBroadband,
  mobileCgnat,
  officeOnboarding,
  universityNat,
  householdShared,
  traveller,
  consumerVpn,
  corporateVpn,
  privacyRelay,
  plusAndDots,
  launchPromo,
  returning,
  retryTypo,
  passwordManager,
  keyboardOnly,
  clockSkew,
  noCollector,
  oldBrowser,
  legitRefund,
];

export { HOUR };
