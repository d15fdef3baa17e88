/**
 * One simulated actor's events: who they are (identity, network, device, browser) and the
 * screenings their actions cause, with the collector's signals where a form was filled.
 */
import type { CollectInput } from "../../../shared/schemas/collect.ts";
import type { ScreenInput, ScreenType } from "../../../shared/schemas/screening.ts";
import { SHOP } from "../end-users.ts";
import type { Rng } from "./rng.ts";
import type { PastCharge } from "./stripe-history.ts";
import { collectOf, type Typing } from "./world.ts";

/** One labelled screening at a simulated time. */
export type SimEvent = {
  /**
   * Milliseconds after the simulation starts. Negative only for an `early` event; any other
   * event before 0 (a newcomer's first page a few minutes before the hour) is played at 0.
   */
  at: number;
  /**
   * Played before the hour at its own time (e.g. accounts made the day before, which the
   * hour's events then name): the run starts its clock early enough for it.
   */
  early?: boolean;
  population: string;
  attack: boolean;
  /** The person (ordinary) or the fake identity (attack) the event is about. */
  actor: string;
  /** For an attack, whether this event is what it is after (recall counts these). */
  payoff?: boolean;
  screen: ScreenInput;
  /** What warden.js collected before the screening (then sent as `signals`), if anything. */
  collect: CollectInput | null;
  /** The collect request's own headers, if not its user agent's (browser-headers.ts). */
  collectHeaders?: Record<string, string>;
  /** The actor's past Stripe charges, delivered as signed webhooks before this screening. */
  history?: PastCharge[];
};

export type Actor = {
  population: string;
  attack: boolean;
  id: string;
  userId: string;
  email: string;
  ip: string;
  zone: string;
  device: string;
  ua: string;
  typing: Typing;
  /** Whether warden.js runs on the page (blocked by an extension, an old browser: no). */
  collector: boolean;
  webdriver?: boolean;
  card?: string;
};

const PATHS: Record<ScreenType, string> = {
  signup: "/signup",
  login: "/login",
  trial_start: "/trial",
  promo_redemption: "/cart",
  referral: "/invite",
  checkout: "/checkout",
  request: "/products",
};

/**
 * The screening for `type` by `actor` at `at`, as the merchant's backend sends it: the user,
 * email, IP and user agent it knows; device and timezone come from the collector's token when
 * the page ran warden.js, and from nowhere otherwise (requests are page loads: no form).
 */
export function eventOf(
  r: Rng,
  actor: Actor,
  type: ScreenType,
  at: number,
  extra: Partial<ScreenInput> = {},
): SimEvent {
  const form = type !== "request";
  const withCollector = form && actor.collector;
  const screen: ScreenInput = {
    type,
    user_id: actor.userId,
    ...(type === "request" ? {} : { email: actor.email }),
    ip: actor.ip,
    user_agent: actor.ua,
    ...(type === "request" ? { url: `${SHOP}${PATHS[type]}` } : {}),
    ...(actor.card && (type === "checkout" || type === "promo_redemption")
      ? { card_fingerprint: actor.card }
      : {}),
    ...extra,
  };
  return {
    at,
    population: actor.population,
    attack: actor.attack,
    actor: actor.id,
    screen,
    collect: withCollector
      ? collectOf(r, actor.device, actor.zone, PATHS[type], actor.typing, actor.webdriver)
      : null,
  };
}

/** Page loads by the actor between `from` and `to` (a few, spaced like reading). */
export function browsing(
  r: Rng,
  actor: Actor,
  from: number,
  to: number,
  pages: number,
): SimEvent[] {
  return Array.from({ length: pages }, () =>
    eventOf(
      r,
      actor,
      "request",
      from + r.next() * Math.max(1, to - from),
      actor.collector ? { device_id: actor.device } : {},
    ),
  );
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
