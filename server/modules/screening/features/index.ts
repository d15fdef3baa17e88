/**
 * Pure, synchronous features for screening: each takes plain values and returns plain data.
 * Data sets and models load once, on first use.
 */
export { isBotUserAgent } from "./bots.ts";
export { type EmailRandomness, emailRandomness } from "./entropy.ts";
export { type IpLookup, lookupIp } from "./geo.ts";
export { HOSTING_ASNS, isHostingAsn } from "./hosting-asns.ts";
export { type IpKeys, ipKeys, normalizeEmail } from "./identity.ts";
export { timezoneFitsCountry } from "./timezones.ts";
