/**
 * The world bench:screen's end users live in: residential networks (with their countries'
 * time zones), hosting addresses, browsers and bots, the shop's pages and promo codes.
 */
import { BROWSERS as CURRENT_BROWSERS } from "../../../lib/end-users.ts";
import { hex, int } from "./random.ts";

/** Residential networks whose country the offline IP data knows, with that country's zones. */
export const NETWORKS: { weight: number; ip: (r: () => number) => string; zones: string[] }[] = [
  {
    weight: 30, // Comcast, US
    ip: (r) => `73.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    zones: ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"],
  },
  {
    weight: 8, // AT&T, US, IPv6
    ip: (r) => `2600:1700:${hex(r, 4)}:${hex(r, 4)}::${hex(r, 3)}`,
    zones: ["America/New_York", "America/Chicago", "America/Los_Angeles"],
  },
  {
    weight: 12, // BT, GB
    ip: (r) => `86.${int(r, 128, 191)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    zones: ["Europe/London"],
  },
  {
    weight: 10, // Deutsche Telekom, DE
    ip: (r) => `91.${int(r, 0, 63)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    zones: ["Europe/Berlin"],
  },
  {
    weight: 4, // Vodafone, DE, IPv6
    ip: (r) => `2a02:8109:${hex(r, 4)}:${hex(r, 4)}::${hex(r, 3)}`,
    zones: ["Europe/Berlin"],
  },
  {
    weight: 10, // Orange, FR
    ip: (r) => `90.${int(r, 0, 127)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    zones: ["Europe/Paris"],
  },
  {
    weight: 8, // Reliance Jio, IN
    ip: (r) => `49.${int(r, 32, 47)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    zones: ["Asia/Kolkata"],
  },
  {
    weight: 6, // SoftBank, JP
    ip: (r) => `126.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    zones: ["Asia/Tokyo"],
  },
];
/** Hosting addresses (AWS, Google Cloud): where farms and scrapers run. */
export const HOSTING = (r: () => number) =>
  r() < 0.6
    ? `3.${int(r, 80, 95)}.${int(r, 0, 255)}.${int(r, 1, 254)}`
    : `34.120.${int(r, 0, 255)}.${int(r, 1, 254)}`;
export const ALL_ZONES = [...new Set(NETWORKS.flatMap((n) => n.zones)), "Asia/Singapore"];

/** The simulator's browsers and desktop Linux Chrome. */
export const BROWSERS = [
  ...CURRENT_BROWSERS,
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
];
export const BOTS = [
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "python-requests/2.32.3",
  "curl/8.7.1",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
];
export const PAGES = [
  "/",
  "/pricing",
  "/products",
  "/products/42",
  "/cart",
  "/account",
  "/blog/launch",
];
export const PROMOS: [string, number][] = [
  ["WELCOME10", 40],
  ["SPRING25", 15],
  ["FREESHIP", 15],
  ["FRIEND5", 10],
  ...Array.from({ length: 20 }, (_, i) => [`CREATOR${i + 1}`, 1] as [string, number]),
];
