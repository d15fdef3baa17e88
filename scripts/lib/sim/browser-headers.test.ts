/**
 * The simulated browsers' collect headers, read as the collector reads them and judged as
 * rule_scraping judges them: every ordinary browser agrees with itself, and what gives a
 * headless or stealth browser away is what the engine finds.
 */
import { describe, expect, it } from "vitest";
import { requestInconsistency } from "../../../server/engine/request-consistency.ts";
import { collectRequestOf } from "../../../server/modules/screening/features/collect-request.ts";
import { requestHeadersOf } from "../../../server/modules/screening/features/collected.ts";
import { BROWSERS } from "../end-users.ts";
import { HEADLESS, SPOOFED_HINTS, STEALTH_BROWSERS, stealthHeaders } from "./attacker.ts";
import { acceptLanguageOf, browserHeaders } from "./browser-headers.ts";
import { rng } from "./rng.ts";
import { OLD_BROWSERS } from "./world.ts";

/** What rule_scraping finds in a collect over https with these headers (null: nothing). */
const judged = (headers: Record<string, string>) =>
  requestInconsistency(requestHeadersOf(collectRequestOf(headers, true)))?.message ?? null;

describe("browserHeaders", () => {
  it.each([...BROWSERS, ...OLD_BROWSERS])("%s agrees with itself", (ua) => {
    expect(judged(browserHeaders(ua, "Europe/Berlin"))).toBeNull();
  });

  it.each([
    [BROWSERS[0], ["sec-ch-ua", "sec-ch-ua-mobile", "sec-ch-ua-platform"], '"Windows"'],
    [BROWSERS[3], ["sec-ch-ua", "sec-ch-ua-mobile", "sec-ch-ua-platform"], '"Android"'],
    [BROWSERS[1], [], undefined],
    [BROWSERS[4], [], undefined],
    [OLD_BROWSERS[1], [], undefined],
  ])("%s sends client hints %j", (ua, hints, platform) => {
    const headers: Record<string, string> = browserHeaders(ua, "America/Chicago");
    expect(Object.keys(headers).filter((name) => name.startsWith("sec-ch-"))).toEqual(hints);
    expect(headers["sec-ch-ua-platform"]).toBe(platform);
  });

  it.each([
    ["Europe/Berlin", "de-DE,de;q=0.9,en;q=0.8"],
    ["Europe/London", "en-GB,en;q=0.9"],
    ["America/New_York", "en-US,en;q=0.9"],
    ["Asia/Tokyo", "ja-JP,ja;q=0.9,en;q=0.8"],
    ["UTC", "en-US,en;q=0.9"],
    [undefined, "en-US,en;q=0.9"],
  ])("Accept-Language for a home in %s: %s", (zone, expected) => {
    expect(acceptLanguageOf(zone)).toBe(expected);
  });

  it.each([
    [HEADLESS, "the browser's client hints (sec-ch-ua) name HeadlessChrome, a headless browser"],
    ["python-requests/2.32.3", null],
  ])("%s: %s", (ua, message) => {
    const headers: Record<string, string> = browserHeaders(ua, "Europe/Paris");
    expect(headers["accept-language"]).toBeUndefined();
    expect(judged(headers)).toBe(message);
  });
});

describe("stealthHeaders", () => {
  it("says Linux under a Windows or Mac user agent, except in the spoofed share", () => {
    const r = rng(7);
    const sessions = Array.from({ length: 400 }, (_, i) => {
      const ua = STEALTH_BROWSERS[i % 2] as string;
      return judged(stealthHeaders(r, ua, "Europe/London"));
    });
    const caught = sessions.filter((message) => message !== null);
    expect(new Set(caught)).toEqual(
      new Set([
        "the browser's client hints say Linux, its user agent says Windows",
        "the browser's client hints say Linux, its user agent says macOS",
      ]),
    );
    expect(caught.length / sessions.length).toBeCloseTo(1 - SPOOFED_HINTS, 1);
  });
});
