/**
 * Pure, synchronous features for screening: each takes plain values and returns plain data.
 * Data sets and models load once, on first use (or at warmFeatures()).
 */
import { isBotUserAgent } from "./bots.ts";
import { emailRandomness } from "./entropy.ts";
import { lookupIp } from "./geo.ts";
import { timezoneFitsCountry } from "./timezones.ts";

export type { EmailRandomness } from "./entropy.ts";
export type { IpLookup } from "./geo.ts";
export { HOSTING_ASNS, isHostingAsn } from "./hosting-asns.ts";
export { type IpKeys, ipKeys, normalizeEmail } from "./identity.ts";
export { emailRandomness, isBotUserAgent, lookupIp, timezoneFitsCountry };

/**
 * Loads every data set and model now (about 0.8 s and 30 MB) so that the first screening does
 * not pay for it: a client that waits 300 ms would get a degraded answer. Called once a
 * merchant holds an API key, not at every start: a Warden that never screens never loads them.
 */
export function warmFeatures(): void {
  lookupIp("8.8.8.8");
  emailRandomness("warm.up@example.com");
  isBotUserAgent("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36");
  timezoneFitsCountry("Europe/Paris", "FR");
}
