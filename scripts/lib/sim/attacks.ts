/**
 * Attacks, each with the evasions real ones use (rotated and fresh email domains, device
 * resets, residential proxies, stealth browsers, sleep jitter). Every event here is labelled
 * an attack; one let through is a miss.
 */
import { type Actor, browsing, eventOf, MINUTE, type SimEvent } from "./journey.ts";
import { actorOf, type Population } from "./population.ts";
import { WELCOME_CODE } from "./populations.ts";
import { refundAbuser } from "./refunds.ts";
import type { Rng } from "./rng.ts";
import {
  BROWSERS,
  CGNAT,
  card,
  DATACENTER,
  deviceId,
  HOME_WEIGHTS,
  MOBILE_BROWSERS,
  nameOf,
} from "./world.ts";

const LISTED_DISPOSABLE = [
  "mailinator.com",
  "yopmail.com",
  "guerrillamail.com",
  "sharklasers.com",
  "10minutemail.com",
  "maildrop.cc",
  "getnada.com",
  "dispostable.com",
];
const HEADLESS =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36";
/** Where farm operators sit, whatever the proxy's country. */
const OPERATOR_ZONES = [
  "Asia/Manila",
  "Asia/Jakarta",
  "Europe/Moscow",
  "Africa/Lagos",
  "Asia/Ho_Chi_Minh",
];

/** A residential proxy exit: an ordinary home address, new for each session. */
function residentialProxy(r: Rng) {
  const net = r.weighted(HOME_WEIGHTS);
  return { ip: net.ip(r), zone: r.pick(net.zones) };
}

function fakeActor(pop: Population, r: Rng, id: string, fields: Partial<Actor>): Actor {
  const proxy = residentialProxy(r);
  return actorOf(pop, id, {
    userId: `u_${pop.name}_${id}`,
    email: nameOf(r, r.int(0, 1e6)).email,
    ip: proxy.ip,
    // Half the operators set the browser's zone to the proxy's; half do not bother.
    zone: r.chance(0.5) ? proxy.zone : r.pick(OPERATOR_ZONES),
    device: deviceId(r),
    ua: r.pick(BROWSERS),
    typing: "fast",
    ...fields,
  });
}

/** A run of `count` fake accounts, `gap` apart (with jitter), each made by `make`. */
function run(
  count: number,
  start: number,
  gap: [number, number],
  r: Rng,
  make: (i: number, at: number) => SimEvent[],
): SimEvent[] {
  const events: SimEvent[] = [];
  let at = start;
  for (let i = 0; i < count; i++) {
    events.push(...make(i, at));
    at += r.int(gap[0], gap[1]);
  }
  return events;
}

const disposableFarm: Population = {
  name: "disposable_farm",
  payoff: ["signup", "trial_start"],
  attack: true,
  share: 14,
  about:
    "signups and trials with throwaway inboxes: listed domains rotated, and fresh domains on no list",
  targetedBy: ["template_one_human_one_trial", "template_disposable_email_throttle"],
  group(r, n, start) {
    const fresh = Array.from(
      { length: 3 },
      () =>
        `${r.pick(["inbox", "mail", "post", "box"])}${r.hex(4)}.${r.pick(["xyz", "top", "site", "online"])}`,
    );
    let device = deviceId(r);
    return run(r.int(8, 16), start, [40_000, 3 * MINUTE], r, (i, at) => {
      if (i % 3 === 0) device = deviceId(r);
      const domain = r.chance(0.6) ? r.pick(LISTED_DISPOSABLE) : r.pick(fresh);
      const actor = fakeActor(this, r, `${n}_${i}`, {
        email: `${nameOf(r, i).first}${r.int(10, 9999)}@${domain}`,
        device,
        ...(r.chance(0.3) ? { ip: DATACENTER(r) } : {}),
      });
      return [
        eventOf(r, actor, "signup", at),
        eventOf(r, actor, "trial_start", at + r.int(20, 90) * 1000),
      ];
    });
  },
};

const trialFarm: Population = {
  name: "trial_farm",
  payoff: ["trial_start"],
  attack: true,
  share: 16,
  about:
    "careful trial farming: device reset and a new residential proxy per account, Gmail aliases or new inboxes, minutes apart",
  targetedBy: ["template_one_human_one_trial"],
  group(r, n, start) {
    const inbox = nameOf(r, n, "gmail.com");
    const [local = "x"] = inbox.email.split("@");
    return run(r.int(6, 12), start, [3 * MINUTE, 8 * MINUTE], r, (i, at) => {
      const email = r.chance(0.5)
        ? r.chance(0.5)
          ? `${local}+t${i}@gmail.com`
          : `${`${local.replace(".", "")}`.split("").join(i % 2 ? "." : "")}@gmail.com`
        : nameOf(r, i, r.pick(["outlook.com", "yahoo.com", "proton.me"])).email;
      const actor = fakeActor(this, r, `${n}_${i}`, { email, typing: "human" });
      return [
        eventOf(r, actor, "signup", at),
        eventOf(r, actor, "trial_start", at + r.int(1, 3) * MINUTE),
      ];
    });
  },
};

const promoStuffing: Population = {
  name: "promo_stuffing",
  payoff: ["promo_redemption"],
  attack: true,
  share: 12,
  about: `one person redeeming the first-order code ${WELCOME_CODE} again and again with new accounts`,
  group(r, n, start) {
    const home = residentialProxy(r);
    const cards = [card(r), card(r)];
    let device = deviceId(r);
    return run(r.int(6, 14), start, [MINUTE, 5 * MINUTE], r, (i, at) => {
      if (r.chance(0.3)) device = deviceId(r);
      const actor = fakeActor(this, r, `${n}_${i}`, {
        device,
        card: r.chance(0.6) ? r.pick(cards) : card(r),
        ...(r.chance(0.5) ? { ip: home.ip, zone: home.zone } : {}),
        email: r.chance(0.5) ? `stuff${n}+${i}@gmail.com` : nameOf(r, i).email,
      });
      return [
        eventOf(r, actor, "signup", at),
        eventOf(r, actor, "promo_redemption", at + r.int(30, 120) * 1000, {
          promo_code: WELCOME_CODE,
        }),
      ];
    });
  },
};

const cardTesting: Population = {
  name: "card_testing",
  payoff: ["checkout"],
  attack: true,
  share: 12,
  about: "stolen cards tried in small charges, many cards from one device, seconds apart",
  group(r, n, start) {
    const base = fakeActor(this, r, `${n}`, {
      ...(r.chance(0.5) ? { ip: DATACENTER(r) } : {}),
      typing: "fast",
    });
    return run(r.int(10, 25), start, [4_000, 25_000], r, (i, at) => {
      const actor = {
        ...base,
        card: card(r),
        ...(r.chance(0.4) ? { email: nameOf(r, i).email, userId: `${base.userId}_${i}` } : {}),
      };
      return [eventOf(r, actor, "checkout", at, { amount: r.int(1, 5) * 100, currency: "usd" })];
    });
  },
};

const headless = (stealth: boolean): Population => ({
  name: stealth ? "headless_stealth" : "headless_plain",
  payoff: ["request", "signup"],
  attack: true,
  share: stealth ? 10 : 8,
  about: stealth
    ? "automation with stealth plugins: normal user agent, no webdriver flag, even typing, residential proxies or cloud servers, 20-40 pages a minute"
    : "headless Chrome and scripts: HeadlessChrome or python-requests, webdriver on, datacenter IPs, 90 pages a minute",
  targetedBy: ["template_stealth_scraper_deterrent"],
  group(r, n, start) {
    const actor = fakeActor(
      this,
      r,
      `${n}`,
      stealth
        ? { ...(r.chance(0.5) ? { ip: DATACENTER(r) } : {}) }
        : {
            ip: DATACENTER(r),
            ua: r.chance(0.6) ? HEADLESS : "python-requests/2.32.3",
            webdriver: true,
          },
    );
    const perMinute = stealth ? r.int(20, 40) : 90;
    // One session per identity: the crawl rotates device and address every 15-30 pages, so
    // a population's share holds several bots, not one long crawl.
    const pages = Array.from({ length: r.int(15, 30) }, (_, i) =>
      eventOf(r, actor, "request", start + (i * MINUTE) / perMinute, { device_id: actor.device }),
    );
    const signup = eventOf(r, actor, "signup", start + r.int(10, 60) * 1000);
    if (signup.collect?.behavior) {
      // A script types: fields filled at a fixed rate (even intervals), no pointer, quick submit.
      signup.collect.behavior = {
        time_to_submit_ms: r.int(250, 1_400),
        pointer_events: stealth ? r.int(0, 2) : 0,
        key_events: stealth ? r.int(20, 40) : 0,
        key_interval_sd_ms: stealth ? r.int(0, 4) : null,
        paste_count: 0,
      };
    }
    return [...pages, signup];
  },
});

const accountFarm: Population = {
  name: "account_farm_jitter",
  payoff: ["signup"],
  attack: true,
  share: 12,
  about:
    "a few phones on mobile data making account after account, with 2-9 minutes of random sleep",
  targetedBy: ["template_account_farm_shield"],
  group(r, n, start) {
    const phones = [deviceId(r), deviceId(r)];
    const carrier = r.pick(CGNAT);
    return run(r.int(10, 20), start, [2 * MINUTE, 9 * MINUTE], r, (i, at) => {
      const actor = fakeActor(this, r, `${n}_${i}`, {
        device: r.pick(phones),
        ip: r.pick(carrier.addresses),
        zone: r.pick(carrier.network.zones),
        ua: r.pick(MOBILE_BROWSERS),
        typing: "human",
      });
      return [eventOf(r, actor, "signup", at), ...browsing(r, actor, at, at + MINUTE, 1)];
    });
  },
};

const referralRing: Population = {
  name: "referral_ring",
  payoff: ["referral"],
  attack: true,
  share: 8,
  about:
    "a ring of fake accounts referring each other for credit, on two devices and rotating proxies",
  targetedBy: ["template_fake_viral_growth_prevention"],
  group(r, n, start) {
    const devices = [deviceId(r), deviceId(r)];
    const members: string[] = [`u_${this.name}_${n}_root`];
    const root = fakeActor(this, r, `${n}_root`, {
      userId: members[0] as string,
      device: devices[0] as string,
    });
    const events = [eventOf(r, root, "signup", start - 30 * MINUTE)];
    events.push(
      ...run(r.int(6, 12), start, [MINUTE, 6 * MINUTE], r, (i, at) => {
        const referrer = r.pick(members);
        const actor = fakeActor(this, r, `${n}_${i}`, {
          device: r.chance(0.6) ? r.pick(devices) : deviceId(r),
        });
        members.push(actor.userId);
        return [
          eventOf(r, actor, "signup", at),
          eventOf(r, actor, "referral", at + 30_000, {
            referrer_user_id: referrer,
            referral_code: `ref_${referrer}`,
          }),
        ];
      }),
    );
    return events;
  },
};

const credentialStuffing: Population = {
  name: "credential_stuffing",
  payoff: ["signup"],
  attack: true,
  share: 8,
  about:
    "signups with leaked real addresses from datacenter IPs, no browser (no collector), seconds apart",
  targetedBy: ["template_fake_viral_growth_prevention", "template_account_farm_shield"],
  group(r, n, start) {
    const ua = r.chance(0.5) ? "python-requests/2.32.3" : (BROWSERS[0] as string);
    return run(r.int(10, 30), start, [2_000, 15_000], r, (i, at) => {
      const actor = fakeActor(this, r, `${n}_${i}`, { ip: DATACENTER(r), ua, collector: false });
      return [eventOf(r, actor, "signup", at)];
    });
  },
};

export const ATTACKS: readonly Population[] = [
  disposableFarm,
  trialFarm,
  promoStuffing,
  cardTesting,
  headless(false),
  headless(true),
  accountFarm,
  referralRing,
  credentialStuffing,
  refundAbuser,
];
