/** rule_entropy, rule_timezone_mismatch, rule_referrer_mismatch, rule_email and rule_country_blocked on events. */
import { describe, expect, it } from "vitest";
import { counts, event, eventFeatures, policy } from "../../../test/fixtures/engine.ts";
import { countryBlocked } from "./country-blocked.ts";
import { email } from "./email.ts";
import { entropy } from "./entropy.ts";
import { referrerMismatch } from "./referrer-mismatch.ts";
import { timezoneMismatch } from "./timezone-mismatch.ts";

const on = policy({
  rule_entropy: true,
  rule_timezone_mismatch: true,
  rule_referrer_mismatch: true,
});

describe("rule_entropy", () => {
  it.each([
    { randomness: { score: 0.1, random: false }, message: null },
    {
      randomness: { score: 0.93, random: true },
      message:
        "email xk7qzp3v9w@… looks randomly generated (score 0.93 against a model of names; limit 0.92)",
    },
    { randomness: null, message: null },
  ])("$randomness → $message", ({ randomness, message }) => {
    const finding = entropy.check(
      event({ email: "xk7qzp3v9w@example.com" }),
      on,
      eventFeatures({ emailRandomness: randomness }),
    );
    expect(finding?.message ?? null).toBe(message);
  });
});

describe("rule_timezone_mismatch", () => {
  it.each([
    { fits: true, message: null },
    { fits: null, message: null },
    {
      fits: false,
      message: "browser timezone Asia/Tokyo is not a timezone of US, the IP's country",
    },
  ])("fits $fits → $message", ({ fits, message }) => {
    const finding = timezoneMismatch.check(
      event({ timezone: "Asia/Tokyo" }),
      on,
      eventFeatures({ timezoneFitsCountry: fits }),
    );
    expect(finding?.message ?? null).toBe(message);
  });
});

it("rule_timezone_mismatch limited to signups and trials (One Human One Trial): a traveller's checkout is not judged", () => {
  const limited = policy(
    { rule_timezone_mismatch: true },
    {},
    { rule_timezone_mismatch: { event_types: ["signup", "trial_start"] } },
  );
  const abroad = eventFeatures({ timezoneFitsCountry: false });
  const zone = { timezone: "Asia/Tokyo" };
  expect(timezoneMismatch.check(event({ ...zone, type: "checkout" }), limited, abroad)).toBeNull();
  expect(
    timezoneMismatch.check(event({ ...zone, type: "trial_start" }), limited, abroad),
  ).not.toBeNull();
});

describe("rule_timezone_mismatch and relayed networks", () => {
  it.each([
    {
      population: "corporate_vpn: an employee in Berlin leaving through Zscaler in the US",
      asn: 22616,
      flagged: false,
    },
    { population: "privacy_relay_email: iCloud Private Relay's exit", asn: 36183, flagged: false },
    { population: "consumer_vpn: a VPN exit on a hosting network", asn: 9009, flagged: false },
    { population: "traveller or proxy: a home ISP abroad", asn: 7922, flagged: true },
  ])("$population → flagged: $flagged", ({ asn, flagged }) => {
    const finding = timezoneMismatch.check(
      event({ timezone: "Europe/Berlin" }),
      on,
      eventFeatures({
        timezoneFitsCountry: false,
        geo: { country: "US", asn, hosting: asn === 9009 },
      }),
    );
    expect(finding !== null).toBe(flagged);
  });
});

describe("rule_referrer_mismatch", () => {
  const allowed = {
    ...policy({ rule_referrer_mismatch: true }),
    allowedOrigins: ["https://shop.example.com"],
  };
  it.each([
    {
      origin: "https://shop.example.com",
      referrer: null,
      url: "https://shop.example.com/x",
      rules: allowed,
      message: null,
    },
    {
      origin: "https://evil.example.net",
      referrer: null,
      url: null,
      rules: allowed,
      message: "origin evil.example.net is not one of your allowed origins",
    },
    {
      origin: "https://shop.example.com",
      referrer: "https://ads.example.org/p",
      url: null,
      rules: allowed,
      message: "referrer ads.example.org is not one of your allowed origins",
    },
    { origin: "https://anything.example", referrer: null, url: null, rules: on, message: null },
    {
      origin: "https://a.example",
      referrer: null,
      url: "https://b.example/signup",
      rules: on,
      message: "origin a.example does not match the page b.example",
    },
  ])(
    "origin $origin, referrer $referrer, url $url → $message",
    ({ origin, referrer, url, rules, message }) => {
      const finding = referrerMismatch.check(
        event({ origin, referrer, url }),
        rules,
        eventFeatures(),
      );
      expect(finding?.message ?? null).toBe(message);
    },
  );
});

describe("rule_email on screened events", () => {
  const disposable = eventFeatures({ disposableDomains: new Set(["mailinator.com"]) });
  const fromMailinator = event({ email: "x@mailinator.com" });

  it("blocks a disposable domain at any event by default", () => {
    expect(email.check(fromMailinator, policy(), disposable)?.message).toBe(
      "disposable email domain mailinator.com (on the disposable-domain list)",
    );
  });

  it("One Human One Trial judges disposable domains at trial start only", () => {
    const oneHuman = policy({ rule_email: false }, {}, {}, { template_one_human_one_trial: true });
    expect(email.check(fromMailinator, oneHuman, disposable)).toBeNull();
    expect(
      email.check({ ...fromMailinator, type: "trial_start" }, oneHuman, disposable),
    ).not.toBeNull();
  });

  it.each([
    { before: 2, message: null },
    {
      before: 3,
      message: "signup with disposable email domain mailinator.com: 4 this hour (limit 3)",
    },
  ])("Disposable Email Throttle, $before this hour before → $message", ({ before, message }) => {
    const throttle = policy({}, {}, {}, { template_disposable_email_throttle: true });
    const finding = email.check(
      fromMailinator,
      throttle,
      eventFeatures({
        disposableDomains: new Set(["mailinator.com"]),
        counts: counts({ disposableSignupsLastHour: { disposable: before } }),
      }),
    );
    expect(finding?.message ?? null).toBe(message);
  });
});

describe("rule_country_blocked on screened events", () => {
  it.each([
    { country: "NG", message: "IP 203.0.113.7 country NG is blocked" },
    { country: "US", message: null },
    { country: null, message: null },
  ])("IP in $country → $message", ({ country, message }) => {
    const finding = countryBlocked.check(
      event(),
      policy({}, { countries: ["NG"] }),
      eventFeatures({ geo: { country, asn: null, hosting: false } }),
    );
    expect(finding?.message ?? null).toBe(message);
  });
});
