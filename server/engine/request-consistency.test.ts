/** requestInconsistency: a collect request's headers against its own User-Agent. */
import { describe, expect, it } from "vitest";
import { claimOf, requestInconsistency } from "./request-consistency.ts";
import type { RequestHeaders } from "./types.ts";

const UA = {
  chromeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  chromeMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  chromeLinux:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  chromeOs:
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  chromeAndroid:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  chromeAndroidTablet:
    "Mozilla/5.0 (Linux; Android 14; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  edgeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
  chrome88:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/88.0.4324.150 Safari/537.36",
  webView:
    "Mozilla/5.0 (Linux; Android 13; SM-S908B; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.0.0 Mobile Safari/537.36",
  samsung:
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36",
  safariMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  chromeIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  firefoxWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  headless:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
  script: "python-requests/2.32.3",
};

const CHROME = ["Google Chrome", "Chromium", "Not_A Brand"];

/** A Chrome on Windows over https, as a real one sends it. */
const request = (overrides: Partial<RequestHeaders> = {}): RequestHeaders => ({
  secure: true,
  userAgent: UA.chromeWindows,
  acceptLanguage: true,
  language: "en-US",
  brands: CHROME,
  mobile: false,
  platform: "Windows",
  ...overrides,
});
const noHints = { brands: null, mobile: null, platform: null };

describe("requestInconsistency", () => {
  it.each<[string, Partial<RequestHeaders>]>([
    ["Chrome on Windows", {}],
    ["Edge on Windows", { userAgent: UA.edgeWindows, brands: ["Microsoft Edge", "Chromium"] }],
    ["Chrome on macOS", { userAgent: UA.chromeMac, platform: "macOS" }],
    ["Chrome on Linux", { userAgent: UA.chromeLinux, platform: "Linux" }],
    ["a Chromebook", { userAgent: UA.chromeOs, platform: "Chrome OS" }],
    ["a Chromebook hinting ChromeOS", { userAgent: UA.chromeOs, platform: "ChromeOS" }],
    ["a Chromium OS build", { userAgent: UA.chromeOs, platform: "Chromium OS" }],
    [
      "Chrome on an Android phone",
      { userAgent: UA.chromeAndroid, mobile: true, platform: "Android" },
    ],
    ["Chrome on an Android tablet", { userAgent: UA.chromeAndroidTablet, platform: "Android" }],
    // "Request desktop site": a Linux desktop UA, the hints may still say Android.
    ["Android asking for the desktop site", { userAgent: UA.chromeLinux, platform: "Android" }],
    ["a platform hint it does not know", { platform: "Unknown" }],
    ["Safari on a Mac: no hints", { userAgent: UA.safariMac, ...noHints }],
    ["Safari on an iPhone: no hints", { userAgent: UA.safariIphone, ...noHints }],
    ["Chrome on iOS (WebKit): no hints", { userAgent: UA.chromeIos, ...noHints }],
    ["Firefox: no hints", { userAgent: UA.firefoxWindows, ...noHints }],
    // Safari and Firefox are never judged on hints, even hints a spoofer left there.
    ["a Firefox UA with Linux hints", { userAgent: UA.firefoxWindows, platform: "Linux" }],
    ["a Safari UA with hints", { userAgent: UA.safariMac, platform: "Linux", mobile: true }],
    ["Chrome 88, before client hints", { userAgent: UA.chrome88, ...noHints }],
    ["an Android WebView without hints", { userAgent: UA.webView, ...noHints }],
    ["Samsung Internet without hints", { userAgent: UA.samsung, ...noHints }],
    ["Chrome without hints over http (none are sent)", { secure: false, ...noHints }],
    ["Chrome with only sec-ch-ua (Chrome 89-92)", { mobile: null, platform: null }],
    [
      "a script without Accept-Language (no browser claimed)",
      { userAgent: UA.script, ...noHints, acceptLanguage: false },
    ],
    ["no User-Agent at all", { userAgent: null, acceptLanguage: false }],
    ["Accept-Language of * (sent, no tag)", { language: null }],
  ])("nothing for %s", (_, overrides) => {
    expect(requestInconsistency(request(overrides))).toBeNull();
  });

  it.each<[string, Partial<RequestHeaders>, string, string | null, string | null]>([
    [
      "Linux hints under a Windows UA",
      { platform: "Linux" },
      "the browser's client hints say Linux, its user agent says Windows",
      "Linux",
      "Windows",
    ],
    [
      "Linux hints under a macOS UA",
      { userAgent: UA.chromeMac, platform: "Linux" },
      "the browser's client hints say Linux, its user agent says macOS",
      "Linux",
      "macOS",
    ],
    [
      "Linux hints under an Android UA",
      { userAgent: UA.chromeAndroid, mobile: true, platform: "Linux" },
      "the browser's client hints say Linux, its user agent says Android",
      "Linux",
      "Android",
    ],
    [
      "Chromium OS hints under a Windows UA",
      { platform: "Chromium OS" },
      "the browser's client hints say Chrome OS, its user agent says Windows",
      "Chrome OS",
      "Windows",
    ],
    [
      "Windows hints under a Mac UA",
      { userAgent: UA.chromeMac },
      "the browser's client hints say Windows, its user agent says macOS",
      "Windows",
      "macOS",
    ],
    [
      "Edge's hints say Linux",
      { userAgent: UA.edgeWindows, platform: "Linux" },
      "the browser's client hints say Linux, its user agent says Windows",
      "Linux",
      "Windows",
    ],
    [
      "mobile ?1 under a Windows desktop UA",
      { mobile: true },
      "the browser's client hints say mobile (sec-ch-ua-mobile ?1), its user agent says a Windows desktop",
      "?1",
      "Windows desktop",
    ],
    [
      "mobile ?0 under an Android phone UA",
      { userAgent: UA.chromeAndroid, platform: "Android", mobile: false },
      "the browser's client hints say not mobile (sec-ch-ua-mobile ?0), its user agent says an Android phone",
      "?0",
      "Android phone",
    ],
    [
      "HeadlessChrome among the brands",
      { brands: ["HeadlessChrome", "Chromium", "Not_A Brand"] },
      "the browser's client hints (sec-ch-ua) name HeadlessChrome, a headless browser",
      "HeadlessChrome",
      null,
    ],
    [
      "HeadlessChrome among the brands under a Safari UA",
      { userAgent: UA.safariMac, brands: ["HeadlessChrome"], platform: "Linux" },
      "the browser's client hints (sec-ch-ua) name HeadlessChrome, a headless browser",
      "HeadlessChrome",
      null,
    ],
    [
      "no hints over https from Chrome 131",
      noHints,
      "the browser sent no client hints over https, its user agent says Chrome 131 (Chrome and Edge send them since version 89)",
      null,
      "Chrome 131",
    ],
    [
      "no hints over https from Edge 131",
      { userAgent: UA.edgeWindows, ...noHints },
      "the browser sent no client hints over https, its user agent says Edge 131 (Chrome and Edge send them since version 89)",
      null,
      "Edge 131",
    ],
    [
      "no hints over https from a HeadlessChrome UA",
      { userAgent: UA.headless, ...noHints },
      "the browser sent no client hints over https, its user agent says Chrome 131 (Chrome and Edge send them since version 89)",
      null,
      "Chrome 131",
    ],
    [
      "no Accept-Language from Chrome",
      { acceptLanguage: false, language: null },
      "the browser sent no Accept-Language, its user agent says Chrome 131 (every browser sends one)",
      null,
      "Chrome 131",
    ],
    [
      "no Accept-Language from Safari",
      { userAgent: UA.safariIphone, ...noHints, acceptLanguage: false, language: null },
      "the browser sent no Accept-Language, its user agent says Safari 17 (every browser sends one)",
      null,
      "Safari 17",
    ],
    [
      "no Accept-Language from Firefox",
      { userAgent: UA.firefoxWindows, ...noHints, acceptLanguage: false, language: null },
      "the browser sent no Accept-Language, its user agent says Firefox 133 (every browser sends one)",
      null,
      "Firefox 133",
    ],
  ])("%s", (_, overrides, message, observed, limit) => {
    expect(requestInconsistency(request(overrides))).toEqual({
      message,
      observed,
      limit,
      review: true,
    });
  });

  it("names the platform contradiction before the missing Accept-Language", () => {
    expect(
      requestInconsistency(request({ platform: "Linux", acceptLanguage: false }))?.observed,
    ).toBe("Linux");
  });
});

describe("claimOf", () => {
  it.each([
    [UA.chromeWindows, "Chrome 131", "Windows", true],
    [UA.edgeWindows, "Edge 131", "Windows", true],
    [UA.chromeOs, "Chrome 131", "Chrome OS", true],
    [UA.chromeAndroid, "Chrome 131", "Android", true],
    [UA.chrome88, "Chrome 88", "Windows", false],
    [UA.webView, "Chrome 131", "Android", false],
    [UA.samsung, "Chrome 115", "Android", false],
    [UA.chromeIos, "Chrome 131 on iOS", "iOS", false],
    [UA.safariIphone, "Safari 17", "iOS", false],
    [UA.safariMac, "Safari 17", "macOS", false],
    [UA.firefoxWindows, "Firefox 133", "Windows", false],
    [UA.script, null, null, false],
  ])("%s → %s on %s (hints expected: %s)", (ua, name, platform, hintsExpected) => {
    expect(claimOf(ua)).toMatchObject({ name, platform, hintsExpected });
  });
});
