/** rule_signup_velocity, rule_promo_velocity, rule_scraping: the Nth allowed, the next one stopped. */
import { describe, expect, it } from "vitest";
import { counts, event, eventFeatures, policy } from "../../../test/fixtures/engine.ts";
import { promoVelocity } from "./promo-velocity.ts";
import { scraping } from "./scraping.ts";
import { signupVelocity } from "./signup-velocity.ts";

const on = policy({ rule_signup_velocity: true, rule_promo_velocity: true, rule_scraping: true });

describe("rule_signup_velocity (defaults: 5 an IP, 20 a /24, per hour)", () => {
  it.each([
    { before: { ip: 4, subnet: 4 }, message: null },
    {
      before: { ip: 5, subnet: 5 },
      message: "6th signup from 203.0.113.7 in 1 h (limit 5)",
    },
    { before: { ip: 0, subnet: 19 }, message: null },
    {
      before: { ip: 0, subnet: 20 },
      message: "21st signup from the /24 of 203.0.113.7 in 1 h (limit 20)",
    },
  ])(
    "$before.ip from the IP, $before.subnet from the /24 before → $message",
    ({ before, message }) => {
      const finding = signupVelocity.check(
        event(),
        on,
        eventFeatures({ counts: counts({ signupsLastHour: before }) }),
      );
      expect(finding?.message ?? null).toBe(message);
    },
  );

  it("names the /48 for IPv6", () => {
    const finding = signupVelocity.check(
      event({ ip: "2001:db8:1:2::5" }),
      on,
      eventFeatures({ counts: counts({ signupsLastHour: { ip: 0, subnet: 20 } }) }),
    );
    expect(finding?.message).toMatch(/the \/48 of 2001:db8:1:2::5/);
  });

  it("abstains for other event types and without an IP", () => {
    const busy = eventFeatures({ counts: counts({ signupsLastHour: { ip: 99, subnet: 99 } }) });
    expect(signupVelocity.check(event({ type: "login" }), on, busy)).toBeNull();
    expect(signupVelocity.check(event({ ip: null }), on, busy)).toBeNull();
  });

  it("takes the merchant's limits", () => {
    const strict = policy(
      { rule_signup_velocity: true },
      {},
      { rule_signup_velocity: { per_ip_per_hour: 1 } },
    );
    const finding = signupVelocity.check(
      event(),
      strict,
      eventFeatures({ counts: counts({ signupsLastHour: { ip: 1, subnet: 1 } }) }),
    );
    expect(finding).toMatchObject({ observed: 2, limit: 1 });
  });
});

describe("rule_promo_velocity (defaults: 30 a code in 10 min, 3 an IP or device per hour)", () => {
  const redemption = event({ type: "promo_redemption", promoCode: "SPRING" });
  it.each([
    { promo: { codeLast10Minutes: 29, ipLastHour: 0, deviceLastHour: 0 }, message: null },
    {
      promo: { codeLast10Minutes: 30, ipLastHour: 0, deviceLastHour: 0 },
      message: "31st redemption of SPRING in 10 min (limit 30)",
    },
    { promo: { codeLast10Minutes: 0, ipLastHour: 2, deviceLastHour: 2 }, message: null },
    {
      promo: { codeLast10Minutes: 0, ipLastHour: 3, deviceLastHour: 0 },
      message: "4th promo redemption from 203.0.113.7 in 1 h (limit 3)",
    },
    {
      promo: { codeLast10Minutes: 0, ipLastHour: 0, deviceLastHour: 3 },
      message: "4th promo redemption from device dev_1 in 1 h (limit 3)",
    },
  ])("$promo → $message", ({ promo, message }) => {
    const finding = promoVelocity.check(
      redemption,
      on,
      eventFeatures({ counts: counts({ promo }) }),
    );
    expect(finding?.message ?? null).toBe(message);
  });
});

describe("rule_scraping (default 120 requests a minute)", () => {
  const request = event({ type: "request" });
  it.each([
    { recent: { ip: 119, device: 0 }, message: null },
    {
      recent: { ip: 120, device: 0 },
      message: "121st request from 203.0.113.7 in 1 min (limit 120)",
    },
    {
      recent: { ip: 0, device: 120 },
      message: "121st request from device dev_1 in 1 min (limit 120)",
    },
  ])("$recent before → $message", ({ recent, message }) => {
    const finding = scraping.check(
      request,
      on,
      eventFeatures({ counts: counts({ requestsLastMinute: recent }) }),
    );
    expect(finding?.message ?? null).toBe(message);
    if (finding) expect(finding.review).toBeUndefined();
  });

  it.each([
    { userAgent: null, bot: false, message: "no user agent" },
    { userAgent: "Googlebot/2.1", bot: true, message: "user agent is a known bot" },
    { userAgent: "Mozilla/5.0 Safari", bot: false, message: null },
  ])("user agent $userAgent → review: $message", ({ userAgent, bot, message }) => {
    const finding = scraping.check(event({ userAgent }), on, eventFeatures({ bot }));
    expect(finding?.message ?? null).toBe(message);
    if (finding) expect(finding.review).toBe(true);
  });

  it("reviews hosting providers' IPs only when asked (Stealth Scraper Deterrent)", () => {
    const cloud = eventFeatures({ geo: { country: "US", asn: 16509, hosting: true } });
    expect(scraping.check(event(), on, cloud)).toBeNull();
    const deterrent = policy({}, {}, {}, { template_stealth_scraper_deterrent: true });
    expect(scraping.check(event(), deterrent, cloud)).toMatchObject({
      observed: 16509,
      review: true,
    });
    const sixtyFirst = eventFeatures({
      counts: counts({ requestsLastMinute: { ip: 60, device: 0 } }),
    });
    expect(scraping.check(request, deterrent, sixtyFirst)?.message).toBe(
      "61st request from 203.0.113.7 in 1 min (limit 60)",
    );
  });
});
