import { getAllCountries, getAllTimezones } from "countries-and-timezones";

/**
 * Zone name → the countries that use it, and the known country codes, built once. Maps, not
 * the library's plain objects: the name comes from the caller, and "constructor" or
 * "toString" looked up in a plain object finds Object.prototype's members (a 500 before).
 */
let zones: Map<string, readonly string[]> | null = null;
let countries: Set<string> | null = null;

function tables() {
  if (!zones || !countries) {
    zones = new Map(
      Object.values(getAllTimezones({ deprecated: true })).map((zone) => [
        zone.name,
        zone.countries,
      ]),
    );
    countries = new Set(Object.keys(getAllCountries({ deprecated: true })));
  }
  return { zones, countries };
}

/**
 * Whether a browser's IANA time zone is one used in the country (ISO 3166 alpha-2), per
 * countries-and-timezones; old names and aliases count ("Asia/Calcutta", "US/Eastern").
 * Null when either is unknown, or for UTC and Etc/* zones, which say nothing about a place
 * (privacy browsers and servers report them), so a rule can abstain instead of guessing.
 */
export function timezoneFitsCountry(timezone: string, country: string): boolean | null {
  const zoneName = timezone.trim();
  const countryCode = country.trim().toUpperCase();
  if (/^(?:etc\/|utc$|gmt$|universal$|zulu$|uct$|greenwich$)/i.test(zoneName)) return null;
  const { zones, countries } = tables();
  const zoneCountries = zones.get(zoneName);
  if (!zoneCountries || zoneCountries.length === 0 || !countries.has(countryCode)) return null;
  return zoneCountries.includes(countryCode);
}
