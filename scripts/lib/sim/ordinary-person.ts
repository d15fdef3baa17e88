/**
 * How an ordinary person is made (at home on a residential network, by default) and what a
 * newcomer does: a few pages, a signup, maybe a trial, a promo code, a checkout. The
 * populations in ordinary-places.ts and ordinary-habits.ts are variations of them.
 */
import { BROWSERS } from "../end-users.ts";
import { type Actor, browsing, eventOf, MINUTE, type SimEvent } from "./journey.ts";
import { HOME_WEIGHTS } from "./networks.ts";
import { actorOf, type Population } from "./population.ts";
import type { Rng } from "./rng.ts";
import { card, deviceId, nameOf } from "./world.ts";

/** The public launch code posted on social media, and a code every new customer gets. */
export const LAUNCH_CODE = "LAUNCH50";
export const WELCOME_CODE = "WELCOME20";

export type Plan = { trial?: number; checkout?: number; promo?: number; code?: string };

/** A new customer: a few pages, a signup, maybe a trial, a promo code, a checkout. */
export function newcomer(r: Rng, actor: Actor, start: number, plan: Plan = {}): SimEvent[] {
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
export function homePerson(
  pop: Population,
  r: Rng,
  id: string,
  overrides: Partial<Actor> = {},
): Actor {
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

/** A population of one person a group, made by `make`, who does what a newcomer does. */
export const single = (
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

/** A population of people at home who differ from home_broadband in `overrides` alone. */
export const single2 = (
  name: string,
  share: number,
  about: string,
  overrides: (r: Rng) => Partial<Actor>,
) => single(name, share, about, (pop, r, id) => homePerson(pop, r, id, overrides(r)));
