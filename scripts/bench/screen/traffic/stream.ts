/**
 * An endless stream of POST /api/v1/screen bodies over bench:screen's population, in a
 * request-heavy mix. Same seed, same stream.
 */
import type { ScreenInput, ScreenType } from "../../../../shared/schemas/screening.ts";
import { SHOP } from "../../../lib/end-users.ts";
import { seededRandom } from "../../../lib/seeded-random.ts";
import { emailFor } from "./names.ts";
import type { Person, Population } from "./population.ts";
import { hex, int, pick, skewed, weighted } from "./random.ts";
import { PAGES, PROMOS } from "./world.ts";

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

/** One draw: who screens, from where, and the stream's state. */
type Draw = {
  r: () => number;
  pop: Population;
  person: Person;
  ip: string;
  device: string;
  web: { ip: string; user_agent: string; device_id: string; timezone: string; origin: string };
  label: string;
  /** The next number for a new person. */
  fresh: () => number;
};

function pageRequest({ r, pop, person, ip, device }: Draw): ScreenInput {
  if (r() < 0.12) {
    const s = pick(r, pop.scrapers);
    return {
      type: "request",
      ip: s.ip,
      device_id: s.device,
      ...(s.ua ? { user_agent: s.ua } : {}),
      url: `${SHOP}${pick(r, PAGES)}`,
    };
  }
  return {
    type: "request",
    ...(r() < 0.6 ? { user_id: person.userId } : {}),
    ip,
    user_agent: person.ua,
    device_id: device,
    url: `${SHOP}${pick(r, PAGES)}`,
    ...(r() < 0.5 ? { referrer: r() < 0.9 ? SHOP : "https://www.google.com/" } : {}),
  };
}

/** A new person; a farm member or a family device now and then. */
function signup({ r, pop, web, label, fresh }: Draw): ScreenInput {
  const n = fresh();
  const { email } = emailFor(r, 1_000_000 + n);
  const other = skewed(r, pop.people);
  return {
    type: "signup",
    user_id: `${label}_new_${n.toString(36)}`,
    email,
    ...web,
    ip: r() < 0.3 ? other.ip : web.ip,
    device_id: r() < 0.15 ? pick(r, other.devices) : `d_new_${label}_${n.toString(36)}`,
    url: `${SHOP}/signup`,
  };
}

function referral({ r, pop, person, web, label, fresh }: Draw): ScreenInput {
  const referrer = person.farm ? person : skewed(r, pop.people);
  const n = fresh();
  return {
    type: "referral",
    user_id: `${label}_new_${n.toString(36)}`,
    email: emailFor(r, 2_000_000 + n).email,
    ...web,
    referral_code: `ref_${referrer.userId}`,
    referrer_user_id: referrer.userId,
    url: `${SHOP}/invite`,
  };
}

function checkout({ r, person, web }: Draw): ScreenInput {
  return {
    type: "checkout",
    user_id: person.userId,
    email: person.email,
    ...web,
    ...(person.card || r() < 0.5 ? { card_fingerprint: person.card ?? `card_${hex(r, 14)}` } : {}),
    amount: int(r, 5, 400) * 100 - 1,
    currency: person.timezone.startsWith("Europe") ? "eur" : "usd",
    url: `${SHOP}/checkout`,
  };
}

function bodyOf(type: ScreenType, draw: Draw): ScreenInput {
  const { r, person, web } = draw;
  switch (type) {
    case "request":
      return pageRequest(draw);
    case "signup":
      return signup(draw);
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
    case "referral":
      return referral(draw);
    default:
      return checkout(draw);
  }
}

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
    return bodyOf(type, { r, pop, person, ip, device, web, label, fresh: () => fresh++ });
  };
  return { next: () => JSON.stringify(next()), counts };
}
