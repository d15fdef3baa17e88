/**
 * The headers a browser's own request to the collector carries (POST /api/v1/collect, made by
 * warden.js in the page): its User-Agent, an Accept-Language in its home country's language,
 * and, from Chrome and Edge 89 on, the client hints Chromium sends to an https origin
 * (sec-ch-ua, sec-ch-ua-mobile; sec-ch-ua-platform from 93). Safari and Firefox send no hints;
 * a script (python-requests) sends only its User-Agent; old headless Chrome names itself in
 * sec-ch-ua and sends no Accept-Language. Pure: the same user agent and zone give the same
 * headers, so ordinary traffic draws nothing more from the simulation's chance.
 */
import { getTimezone } from "countries-and-timezones";

/** The first language a browser asks for in each country the simulation places people in. */
const LANGUAGES: Record<string, string> = {
  US: "en-US",
  GB: "en-GB",
  AU: "en-AU",
  IN: "en-IN",
  PH: "en-PH",
  NG: "en-NG",
  DE: "de-DE",
  FR: "fr-FR",
  JP: "ja-JP",
  ID: "id-ID",
  RU: "ru-RU",
  VN: "vi-VN",
};

/** Accept-Language as browsers write it: the home language first, English after. */
export function acceptLanguageOf(zone: string | undefined): string {
  const country = zone ? getTimezone(zone)?.countries[0] : undefined;
  const tag = (country && LANGUAGES[country]) ?? "en-US";
  const language = tag.split("-")[0];
  return language === "en" ? `${tag},en;q=0.9` : `${tag},${language};q=0.9,en;q=0.8`;
}

/** The platform a Chromium's sec-ch-ua-platform names for this User-Agent. */
function platformOf(ua: string): string {
  if (/Windows NT/.test(ua)) return "Windows";
  if (/Android/.test(ua)) return "Android";
  if (/CrOS/.test(ua)) return "Chrome OS";
  if (/Macintosh/.test(ua)) return "macOS";
  return "Linux";
}

/** Chromium's three default client hints, for a browser claiming `ua`, on `platform`. */
export function clientHints(
  ua: string,
  platform = platformOf(ua),
  mobile = /Android/.test(ua) && /Mobile/.test(ua),
): Record<string, string> {
  const edge = /\bEdgA?\/(\d+)/.exec(ua);
  const headless = /HeadlessChrome\/(\d+)/.exec(ua);
  const chrome = /\bChrome\/(\d+)/.exec(ua);
  const major = Number((edge ?? headless ?? chrome)?.[1] ?? 0);
  if (major < 89 || /CriOS|EdgiOS/.test(ua)) return {};
  const brand = edge ? "Microsoft Edge" : headless ? "HeadlessChrome" : "Google Chrome";
  return {
    "sec-ch-ua": `"${brand}";v="${major}", "Chromium";v="${major}", "Not_A Brand";v="24"`,
    "sec-ch-ua-mobile": mobile ? "?1" : "?0",
    ...(major >= 93 ? { "sec-ch-ua-platform": `"${platform}"` } : {}),
  };
}

/** What a browser claiming `ua`, whose person lives in `zone`, sends with its collect. */
export function browserHeaders(ua: string | undefined, zone: string | undefined) {
  if (!ua) return {};
  // A script is no browser: its library sends a User-Agent and no language.
  if (!ua.startsWith("Mozilla/")) return { "user-agent": ua };
  const headless = /HeadlessChrome/.test(ua);
  return {
    "user-agent": ua,
    ...(headless ? {} : { "accept-language": acceptLanguageOf(zone) }),
    ...clientHints(ua),
  };
}
