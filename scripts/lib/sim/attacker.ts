/**
 * What attackers are made of: throwaway inbox domains, a headless browser, where operators
 * sit, residential proxies, and a fake account built from them; `run` spaces a farm's
 * accounts out in time. The attacks are in account-attacks.ts and bot-attacks.ts.
 */
import { BROWSERS } from "../end-users.ts";
import { acceptLanguageOf, clientHints } from "./browser-headers.ts";
import type { Actor, SimEvent } from "./journey.ts";
import { HOME_WEIGHTS } from "./networks.ts";
import { actorOf, type Population } from "./population.ts";
import type { Rng } from "./rng.ts";
import { deviceId, nameOf } from "./world.ts";

export const LISTED_DISPOSABLE = [
  "mailinator.com",
  "yopmail.com",
  "guerrillamail.com",
  "sharklasers.com",
  "10minutemail.com",
  "maildrop.cc",
  "getnada.com",
  "dispostable.com",
];
export const HEADLESS =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36";
/** What a stealth tool's User-Agent claims: Chrome on Windows or on a Mac. */
export const STEALTH_BROWSERS: readonly string[] = [
  BROWSERS[0] as string,
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
];
/** The share of stealth sessions whose client hints are spoofed to match the User-Agent too. */
export const SPOOFED_HINTS = 0.3;

/**
 * The collect headers of a headless Chromium on a Linux server whose User-Agent claims `ua`:
 * a language set for `zone`, and the client hints of the machine it runs on (Linux: Chromium
 * started with --user-agent), or, in SPOOFED_HINTS of sessions, hints made to match (a
 * user-agent override with its metadata).
 */
export function stealthHeaders(r: Rng, ua: string, zone: string): Record<string, string> {
  return {
    "user-agent": ua,
    "accept-language": acceptLanguageOf(zone),
    ...(r.chance(SPOOFED_HINTS) ? clientHints(ua) : clientHints(ua, "Linux", false)),
  };
}
/** Where farm operators sit, whatever the proxy's country. */
const OPERATOR_ZONES = [
  "Asia/Manila",
  "Asia/Jakarta",
  "Europe/Moscow",
  "Africa/Lagos",
  "Asia/Ho_Chi_Minh",
];

/** A residential proxy exit: an ordinary home address, new for each session. */
export function residentialProxy(r: Rng) {
  const net = r.weighted(HOME_WEIGHTS);
  return { ip: net.ip(r), zone: r.pick(net.zones) };
}

/** A fake account behind a residential proxy, typing fast, with a fresh device and name. */
export function fakeActor(pop: Population, r: Rng, id: string, fields: Partial<Actor>): Actor {
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
export function run(
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
