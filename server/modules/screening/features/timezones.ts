import { getCountry, getTimezone } from "countries-and-timezones";

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
  const zone = getTimezone(zoneName);
  if (zone === null || zone.countries.length === 0 || getCountry(countryCode) === null) return null;
  return (zone.countries as readonly string[]).includes(countryCode);
}
