/**
 * The simulated people themselves: their names and email providers, browsers, devices and
 * cards, and how a person fills a form as the collector sees it. Where they are (addresses,
 * time zones) is networks.ts; names and browsers are shared with bench:screen
 * (scripts/lib/end-users.ts).
 */
import type { Behavior, CollectInput } from "../../../shared/schemas/collect.ts";
import { BROWSERS, FIRST_NAMES, LAST_NAMES, SHOP } from "../end-users.ts";
import type { Rng } from "./rng.ts";

export const MOBILE_BROWSERS = BROWSERS.slice(2, 4);
export const OLD_BROWSERS = [
  "Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko",
  "Mozilla/5.0 (Windows NT 5.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.112 Safari/537.36",
  "Mozilla/5.0 (iPad; CPU OS 9_3_5 like Mac OS X) AppleWebKit/601.1.46 (KHTML, like Gecko) Version/9.0 Mobile/13G36 Safari/601.1",
  "Mozilla/5.0 (Linux; U; Android 4.4.2; en-us; SM-T230 Build/KOT49H) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Safari/534.30",
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
  const first = r.pick(FIRST_NAMES);
  const last = r.pick(LAST_NAMES);
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
