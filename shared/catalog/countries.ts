/**
 * Country reference data (ISO 3166-1 alpha-2 code + English name) from i18n-iso-countries,
 * registered with its English locale only so the browser bundle stays small.
 */
import countries from "i18n-iso-countries";
import en from "i18n-iso-countries/langs/en.json" with { type: "json" };

countries.registerLocale(en);

export type Country = { code: string; name: string };

/** Every country, sorted by English name. */
export const COUNTRIES: readonly Country[] = Object.entries(
  countries.getNames("en", { select: "official" }),
)
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, "en"));

const CODES = new Set(COUNTRIES.map((country) => country.code));

/** True for an upper-case ISO 3166-1 alpha-2 code on the reference list. */
export function isCountryCode(code: string): boolean {
  return CODES.has(code);
}
