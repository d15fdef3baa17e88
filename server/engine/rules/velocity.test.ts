/** rule_signup_velocity, rule_promo_velocity, rule_scraping: the Nth allowed, the next one stopped. */
import { describe, expect, it } from "vitest";
import { counts, event, eventFeatures, policy } from "../../../test/fixtures/engine.ts";
import { promoVelocity } from "./promo-velocity.ts";
import { scraping } from "./scraping.ts";
import { signupVelocity } from "./signup-velocity.ts";

const on = policy({ rule_signup_velocity: true, rule_promo_velocity: true, rule_scraping: true });

/** An address the offline data places nowhere (a documentation range): not known to be shared. */
const unplaced = { geo: null };
const signupCounts = (signupsLastHour: {
  ip?: number;
  subnet?: number;
  network?: number;
  device?: number;
}) => counts({ signupsLastHour: { ip: 0, subnet: 0, device: 0, ...signupsLastHour } });

describe("rule_signup_velocity (defaults: 5 an IP or device, 20 a /24, per hour)", () => {
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
        eventFeatures({ ...unplaced, counts: signupCounts(before) }),
      );
      expect(finding?.message ?? null).toBe(message);
    },
  );

  it("names the /48 for IPv6", () => {
    const finding = signupVelocity.check(
      event({ ip: "2001:db8:1:2::5" }),
      on,
      eventFeatures({ ...unplaced, counts: signupCounts({ subnet: 20 }) }),
    );
    expect(finding?.message).toMatch(/the \/48 of 2001:db8:1:2::5/);
  });

  it("abstains for other event types and without an IP", () => {
    const busy = eventFeatures({ ...unplaced, counts: signupCounts({ ip: 99, subnet: 99 }) });
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
      eventFeatures({ ...unplaced, counts: signupCounts({ ip: 1, subnet: 1 }) }),
    );
    expect(finding).toMatchObject({ observed: 2, limit: 1 });
  });
});

/** Populations of `npm run simulate`: who signs up in numbers from one address, and who is a farm. */
describe("rule_signup_velocity and shared addresses", () => {
  const carrier = { country: "US", asn: 21928, hosting: false }; // T-Mobile US
  const cloud = { country: "US", asn: 14061, hosting: true }; // DigitalOcean
  const browser = { webdriver: false, behavior: null };
  it.each([
    {
      population: "mobile_cgnat: the 60th signup an hour behind a carrier's CGNAT address",
      subject: event({ ip: "172.56.21.14", browser }),
      geo: carrier,
      before: { ip: 59, subnet: 80 },
      message: null,
    },
    {
      population: "office_onboarding: a team of 25 behind the office's one address",
      subject: event({ ip: "12.34.56.7", browser }),
      geo: { country: "US", asn: 7018, hosting: false },
      before: { ip: 24, subnet: 24 },
      message: null,
    },
    {
      population: "university_nat: a class on two campus addresses",
      subject: event({ ip: "171.64.168.10", browser }),
      geo: { country: "US", asn: 32, hosting: false },
      before: { ip: 30, subnet: 45 },
      message: null,
    },
    {
      population: "consumer_vpn: a person on a VPN exit, in a browser",
      subject: event({ ip: "185.156.46.140", browser }),
      geo: cloud,
      before: { ip: 1, subnet: 1 },
      message: null,
    },
    {
      population: "account_farm_jitter: the 6th account in an hour from one phone on CGNAT",
      subject: event({ ip: "172.56.21.14", deviceId: "wd1_phone", browser }),
      geo: carrier,
      before: { ip: 30, device: 5 },
      message: "6th signup from device wd1_phone in 1 h (limit 5)",
    },
    {
      population: "credential_stuffing: a script on a cloud server, no browser",
      subject: event({ ip: "167.99.1.1", deviceId: null, browser: null }),
      geo: cloud,
      before: {},
      message:
        "signup from a hosting provider's network (AS14061, 167.99.1.1) with no browser signals: no collector token and no device id",
    },
    {
      population: "credential_stuffing: the 6th signup from one cloud address",
      subject: event({ ip: "167.99.1.1", browser }),
      geo: cloud,
      before: { ip: 5 },
      message: "6th signup from 167.99.1.1 in 1 h (limit 5)",
    },
  ])("$population → $message", ({ subject, geo, before, message }) => {
    const finding = signupVelocity.check(
      subject,
      on,
      eventFeatures({ geo, counts: signupCounts(before) }),
    );
    expect(finding?.message ?? null).toBe(message);
  });

  it("vpn_crowd: past the network limit, a person's browser on a new device is reviewed; a script's burst is blocked", () => {
    const byHand = {
      webdriver: false,
      behavior: {
        pointerEvents: 30,
        keyEvents: 40,
        keyIntervalSdMs: 120,
        timeToSubmitMs: 14_000,
        pasteCount: 0,
      },
    };
    const vpn = { country: "NL", asn: 9009, hosting: true }; // M247
    const features = (device: number) =>
      eventFeatures({ geo: vpn, counts: signupCounts({ ip: 2, subnet: 3, network: 8, device }) });
    const person = signupVelocity.check(
      event({ ip: "185.156.46.140", deviceId: "wd1_new", browser: byHand }),
      on,
      features(0),
    );
    expect(person).toMatchObject({ review: true, observed: 9, limit: 5 });
    expect(person?.message).toMatch(/a person's browser filled it .*reviewed$/);
    // An address no data places keeps its limits, hands or not: only a hosting network's users
    // are a VPN's.
    const unplaced = signupVelocity.check(
      event({ ip: "203.0.113.50", deviceId: "wd1_new", browser: byHand }),
      on,
      eventFeatures({ geo: null, counts: signupCounts({ ip: 5 }) }),
    );
    expect(unplaced).toMatchObject({ observed: 6, limit: 5 });
    expect(unplaced?.review).toBeUndefined();
    // The same with no hands on the form, automation, or a device that signed up before: blocked.
    for (const [subject, device] of [
      [event({ ip: "185.156.46.140", deviceId: "wd1_new", browser }), 0],
      [
        event({
          ip: "185.156.46.140",
          deviceId: "wd1_new",
          browser: { ...byHand, webdriver: true },
        }),
        0,
      ],
      [
        event({
          ip: "185.156.46.140",
          deviceId: "wd1_new",
          browser: { ...byHand, behavior: { ...byHand.behavior, timeToSubmitMs: 600 } },
        }),
        0,
      ],
      [event({ ip: "185.156.46.140", deviceId: "wd1_old", browser: byHand }), 1],
    ] as const) {
      const finding = signupVelocity.check(subject, on, features(device));
      expect(finding?.review).toBeUndefined();
      expect(finding?.message).toMatch(
        /signup from hosting network AS9009 in 1 h, across its ranges \(limit 5\)$/,
      );
    }
  });

  it("reviews, not blocks, a signup from a hosting network without a browser", () => {
    const finding = signupVelocity.check(
      event({ ip: "167.99.1.1", deviceId: null, browser: null }),
      on,
      eventFeatures({ geo: { country: "US", asn: 14061, hosting: true } }),
    );
    expect(finding).toMatchObject({ observed: 14061, limit: null, review: true });
  });
});

/** The promo velocity rule's two declarations, from the numbers it reads. */
const promoCounts = (p: {
  codeLast10Minutes: number;
  ipLastHour: number;
  deviceLastHour: number;
}) => ({
  promoCodeLast10Minutes: { promo: p.codeLast10Minutes },
  promoLastHour: { ip: p.ipLastHour, device: p.deviceLastHour },
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
      eventFeatures({ ...unplaced, counts: counts(promoCounts(promo)) }),
    );
    expect(finding?.message ?? null).toBe(message);
  });

  it.each([
    {
      population: "launch_promo: the 4th redemption an hour behind a carrier's CGNAT address",
      promo: { codeLast10Minutes: 5, ipLastHour: 3, deviceLastHour: 0 },
      message: null,
    },
    {
      population: "promo_stuffing: the 4th redemption an hour from one device",
      promo: { codeLast10Minutes: 5, ipLastHour: 3, deviceLastHour: 3 },
      message: "4th promo redemption from device dev_1 in 1 h (limit 3)",
    },
  ])("$population → $message", ({ promo, message }) => {
    const finding = promoVelocity.check(
      redemption,
      on,
      eventFeatures({
        geo: { country: "US", asn: 21928, hosting: false },
        counts: counts(promoCounts(promo)),
      }),
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
    { userAgent: null, bot: false, message: "no user agent: browsers always send one" },
    {
      userAgent: "Googlebot/2.1",
      bot: true,
      message: "user agent is a known bot (isbot's list): Googlebot/2.1",
    },
    { userAgent: "Mozilla/5.0 Safari", bot: false, message: null },
  ])("user agent $userAgent → review: $message", ({ userAgent, bot, message }) => {
    const finding = scraping.check(event({ userAgent }), on, eventFeatures({ bot }));
    expect(finding?.message ?? null).toBe(message);
    if (finding) expect(finding.review).toBe(true);
  });

  it("reviews hosting providers' IPs only when asked (Stealth Scraper Deterrent)", () => {
    const cloud = eventFeatures({ geo: { country: "US", asn: 16509, hosting: true } });
    const script = event({ deviceId: null, browser: null });
    expect(scraping.check(script, on, cloud)).toBeNull();
    const deterrent = policy({}, {}, {}, { template_stealth_scraper_deterrent: true });
    expect(scraping.check(script, deterrent, cloud)).toMatchObject({
      message:
        "IP 203.0.113.7 belongs to a hosting provider (AS16509) on Warden's list of hosting networks, with no browser signals (no device id, no collector token)",
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

/** Populations of `npm run simulate` on hosting networks: people on VPNs, and machines. */
describe("rule_scraping (Stealth Scraper Deterrent) on hosting networks", () => {
  const deterrent = policy({}, {}, {}, { template_stealth_scraper_deterrent: true });
  const vpn = { country: "RO", asn: 9009, hosting: true }; // M247
  const request = event({ type: "request", ip: "193.176.84.23", deviceId: "wd1_reader" });
  it.each([
    {
      population: "consumer_vpn: a person reading a page a minute through a VPN",
      subject: request,
      recent: { ip: 3, device: 1 },
      message: null,
    },
    {
      population: "consumer_vpn: a person signing up in a browser through a VPN",
      subject: event({ ip: "193.176.84.23", browser: { webdriver: false, behavior: null } }),
      recent: { ip: 0, device: 0 },
      message: null,
    },
    {
      population: "headless_stealth: 25 pages a minute from one device on a hosting network",
      subject: request,
      recent: { ip: 24, device: 24 },
      message:
        "IP 193.176.84.23 belongs to a hosting provider (AS9009) on Warden's list of hosting networks, and 25 requests from it in 1 min (limit 10 from a hosting network)",
    },
    {
      population: "credential_stuffing: a signup from a cloud server with no browser",
      subject: event({ ip: "193.176.84.23", deviceId: null, browser: null }),
      recent: { ip: 0, device: 0 },
      message:
        "IP 193.176.84.23 belongs to a hosting provider (AS9009) on Warden's list of hosting networks, with no browser signals (no device id, no collector token)",
    },
  ])("$population → $message", ({ subject, recent, message }) => {
    const finding = scraping.check(
      subject,
      deterrent,
      eventFeatures({ geo: vpn, counts: counts({ requestsLastMinute: recent }) }),
    );
    expect(finding?.message ?? null).toBe(message);
  });
});
