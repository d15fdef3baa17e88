/** rule_scraping reviews a collect request that contradicts itself (request-consistency.ts). */
import { describe, expect, it } from "vitest";
import type { ScreenType } from "../../../shared/schemas/screening.ts";
import { event, eventFeatures, policy } from "../../../test/fixtures/engine.ts";
import type { RequestHeaders } from "../types.ts";
import { scraping } from "./scraping.ts";

const WINDOWS_CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const headers = (platform: string): RequestHeaders => ({
  secure: true,
  userAgent: WINDOWS_CHROME,
  acceptLanguage: true,
  language: "en-US",
  brands: ["Google Chrome", "Chromium"],
  mobile: false,
  platform,
});
const withRequest = (request: RequestHeaders | null, type: ScreenType = "signup") =>
  event({ type, browser: { webdriver: false, behavior: null, request } });

describe("rule_scraping: the collector's own request", () => {
  const on = policy({ rule_scraping: true });

  it.each(["signup", "login", "checkout", "trial_start", "promo_redemption"] as const)(
    "reviews Linux hints under a Windows user agent at %s",
    (type) => {
      expect(scraping.check(withRequest(headers("Linux"), type), on, eventFeatures())).toEqual({
        message: "the browser's client hints say Linux, its user agent says Windows",
        observed: "Linux",
        limit: "Windows",
        review: true,
      });
    },
  );

  it.each([
    ["a consistent request", withRequest(headers("Windows"))],
    ["a token collected before headers were kept", withRequest(null)],
    ["no collector token", event({ browser: null })],
  ])("finds nothing for %s", (_, subject) => {
    expect(scraping.check(subject, on, eventFeatures())).toBeNull();
  });

  it("is one of the bot reviews: off with review_bots", () => {
    const noBots = policy({ rule_scraping: true }, {}, { rule_scraping: { review_bots: false } });
    expect(scraping.check(withRequest(headers("Linux")), noBots, eventFeatures())).toBeNull();
  });

  it("names a known bot user agent first", () => {
    const subject = { ...withRequest(headers("Linux")), userAgent: "Googlebot/2.1" };
    expect(scraping.check(subject, on, eventFeatures({ bot: true }))?.message).toBe(
      "user agent is a known bot (isbot's list): Googlebot/2.1",
    );
  });
});
