/**
 * Whether the collect request contradicts itself: what a browser puts on the wire (client
 * hints, Accept-Language) against what its User-Agent claims. A stealth tool rewrites the
 * User-Agent and what the page's JavaScript sees; a headless Chromium on a Linux server still
 * sends `sec-ch-ua-platform: "Linux"`, names itself HeadlessChrome in `sec-ch-ua`, or sends
 * no hints or no Accept-Language at all. Both sides come from the same request, so a real
 * browser agrees with itself. Safari and Firefox send no client hints: their hints are never
 * judged. Pure; rule_scraping reviews what it finds.
 */
import type { Finding, RequestHeaders } from "./types.ts";

/**
 * From this version on a Chrome or Edge must send client hints over https (Chromium sends
 * sec-ch-ua and sec-ch-ua-mobile by default since 89; one version of margin).
 */
export const HINTS_EXPECTED_FROM = 90;

type Platform = "Windows" | "macOS" | "Linux" | "Chrome OS" | "Android" | "iOS";

/** What a User-Agent claims to be. */
type Claim = {
  /** "Chrome 131", "Edge 131", "Firefox 133", "Safari 17"; null: no browser we know. */
  name: string | null;
  /** A Chromium, which sends client hints (a WebView, Opera, Samsung Internet... too). */
  chromium: boolean;
  /** A Chrome or Edge of HINTS_EXPECTED_FROM or later, which always sends them over https. */
  hintsExpected: boolean;
  platform: Platform | null;
  /** The "Mobile" token: a phone, not a tablet or a desktop. */
  mobile: boolean;
};

/** Chromium browsers whose client hints have varied by version or build: never expected. */
const OTHER_CHROMIUM = /\b(?:OPR|SamsungBrowser|YaBrowser|UCBrowser|Electron)\/|; wv\)/;

function platformOf(ua: string): Platform | null {
  if (/Windows NT/.test(ua)) return "Windows";
  if (/\bAndroid\b/.test(ua)) return "Android";
  if (/iPhone|iPad|iPod/.test(ua)) return "iOS";
  if (/\bCrOS\b/.test(ua)) return "Chrome OS";
  if (/Macintosh|Mac OS X/.test(ua)) return "macOS";
  if (/X11|Linux/.test(ua)) return "Linux";
  return null;
}

/** What the User-Agent says it is; exported for the table test. */
export function claimOf(ua: string): Claim {
  const platform = platformOf(ua);
  const mobile = /\bMobile\b/.test(ua);
  const base = { platform, mobile, chromium: false, hintsExpected: false };
  const firefox = /\b(?:Firefox|FxiOS)\/(\d+)/.exec(ua);
  if (firefox) return { ...base, name: `Firefox ${firefox[1]}` };
  // Chrome, Edge and Firefox on iOS are Safari underneath: no client hints.
  const ios = /\b(CriOS|EdgiOS)\/(\d+)/.exec(ua);
  if (ios) return { ...base, name: `${ios[1] === "CriOS" ? "Chrome" : "Edge"} ${ios[2]} on iOS` };
  const edge = /\bEdgA?\/(\d+)/.exec(ua);
  const chrome = /(?:Headless)?Chrome\/(\d+)/.exec(ua);
  if (edge || chrome) {
    const major = Number((edge ?? chrome)?.[1]);
    return {
      ...base,
      name: edge ? `Edge ${major}` : `Chrome ${major}`,
      chromium: true,
      hintsExpected: major >= HINTS_EXPECTED_FROM && !OTHER_CHROMIUM.test(ua),
    };
  }
  const safari = /\bVersion\/(\d+)[\d.]*.*\bSafari\//.exec(ua);
  if (safari) return { ...base, name: `Safari ${safari[1]}` };
  return { ...base, name: null };
}

/** sec-ch-ua-platform in our words; null for "Unknown", "Fuchsia" or anything else. */
function hintedPlatform(value: string | null): Platform | null {
  switch (value?.toLowerCase().replace(/\s/g, "")) {
    case "windows":
      return "Windows";
    case "macos":
      return "macOS";
    case "linux":
      return "Linux";
    case "android":
      return "Android";
    case "ios":
      return "iOS";
    case "chromeos":
    case "chromiumos":
      return "Chrome OS";
    default:
      return null;
  }
}

/** Chrome on Android asked for the desktop site claims Linux and may still hint Android. */
function fits(hinted: Platform, claimed: Platform): boolean {
  return hinted === claimed || (hinted === "Android" && claimed === "Linux");
}

const DESKTOPS: readonly Platform[] = ["Windows", "macOS", "Linux", "Chrome OS"];

function hintsFinding(request: RequestHeaders, claim: Claim): Finding | null {
  const hinted = hintedPlatform(request.platform);
  if (hinted && claim.platform && !fits(hinted, claim.platform)) {
    return {
      message: `the browser's client hints say ${hinted}, its user agent says ${claim.platform}`,
      observed: hinted,
      limit: claim.platform,
      review: true,
    };
  }
  if (request.mobile === true && claim.platform && DESKTOPS.includes(claim.platform)) {
    return {
      message: `the browser's client hints say mobile (sec-ch-ua-mobile ?1), its user agent says a ${claim.platform} desktop`,
      observed: "?1",
      limit: `${claim.platform} desktop`,
      review: true,
    };
  }
  if (request.mobile === false && claim.platform === "Android" && claim.mobile) {
    return {
      message:
        "the browser's client hints say not mobile (sec-ch-ua-mobile ?0), its user agent says an Android phone",
      observed: "?0",
      limit: "Android phone",
      review: true,
    };
  }
  const none = request.brands === null && request.mobile === null && request.platform === null;
  if (none && request.secure && claim.hintsExpected) {
    return {
      message: `the browser sent no client hints over https, its user agent says ${claim.name} (Chrome and Edge send them since version 89)`,
      observed: null,
      limit: claim.name,
      review: true,
    };
  }
  return null;
}

/** The first contradiction in the collect request's own headers, or null. */
export function requestInconsistency(request: RequestHeaders): Finding | null {
  // No real browser names itself so, whatever its User-Agent claims.
  if (request.brands?.some((brand) => /HeadlessChrome/i.test(brand))) {
    return {
      message: "the browser's client hints (sec-ch-ua) name HeadlessChrome, a headless browser",
      observed: "HeadlessChrome",
      limit: null,
      review: true,
    };
  }
  if (!request.userAgent) return null;
  const claim = claimOf(request.userAgent);
  if (claim.name === null) return null;
  const hints = claim.chromium ? hintsFinding(request, claim) : null;
  if (hints) return hints;
  if (!request.acceptLanguage) {
    return {
      message: `the browser sent no Accept-Language, its user agent says ${claim.name} (every browser sends one)`,
      observed: null,
      limit: claim.name,
      review: true,
    };
  }
  return null;
}
