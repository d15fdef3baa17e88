import { describe, expect, it } from "vitest";
import {
  counts,
  event,
  eventFeatures,
  links as noLinks,
  policy,
} from "../../test/fixtures/engine.ts";
import { SIGNAL_KEYS, type Signal, signalsOf } from "./signals.ts";
import type { Features, Links } from "./types.ts";

const NOW = Date.parse("2026-11-26T12:00:00Z");
const MIN = 60_000;

/** Links of an account and device first seen 20 days ago, unless overridden. */
const links = (overrides: Partial<Links> = {}): Links =>
  noLinks({
    accountFirstSeen: NOW - 20 * 24 * 60 * MIN,
    deviceFirstSeen: NOW - 20 * 24 * 60 * MIN,
    ...overrides,
  });

/** A returning customer's world: its email domain seen for months, nothing else unusual. */
const on = (f: Partial<Features>) =>
  eventFeatures({
    now: NOW,
    links: links(),
    counts: counts({ domainSignups30Days: { domain: 40 } }),
    ...f,
  });
const byKey = (signals: Signal[]) => Object.fromEntries(signals.map((s) => [s.signal, s.value]));
const browser = { webdriver: false, behavior: null, request: null };

describe("signalsOf", () => {
  it("an ordinary returning customer's login from home says only that it is returning", () => {
    const signals = signalsOf(event({ type: "login", browser }), policy(), on({}));
    expect(signals).toEqual([
      {
        signal: "returning_account",
        value: 1,
        detail: "returning account, first seen 20 days ago",
      },
    ]);
  });

  it.each([
    {
      name: "a new account and device",
      subject: event({ browser }),
      features: { links: links({ accountFirstSeen: null, deviceFirstSeen: NOW - 3 * MIN }) },
      expected: { account_new: 1, device_new: 1 },
    },
    {
      name: "an account first seen 5 hours ago is young",
      subject: event({ browser }),
      features: { links: links({ accountFirstSeen: NOW - 300 * MIN }) },
      expected: { account_young: 1 },
    },
    {
      name: "linked to 3 accounts new this hour: log2(1+3) = 2, and to 1 bad one",
      subject: event({ browser }),
      features: {
        links: links({
          accounts: 3,
          firstSeenLastHour: 3,
          firstSeenLastDay: 3,
          bad: 1,
          through: [{ kind: "card", accounts: 3 }],
        }),
      },
      expected: { linked_last_hour: 2, linked_bad: 1, returning_account: 1 },
    },
    {
      name: "a hosting network with no browser behind it, and a disposable inbox",
      subject: event({ email: "x@mailinator.com", deviceId: null }),
      features: {
        geo: { country: "DE", asn: 24940, hosting: true },
        disposableDomains: new Set(["mailinator.com"]),
      },
      expected: { hosting_network: 1, no_browser: 1, disposable_email: 1, returning_account: 1 },
    },
    {
      name: "a webdriver browser that submitted without input, fast",
      subject: event({
        browser: {
          webdriver: true,
          behavior: {
            timeToSubmitMs: 300,
            pointerEvents: 0,
            keyEvents: 0,
            keyIntervalSdMs: null,
            pasteCount: 0,
          },
          request: null,
        },
      }),
      features: {},
      expected: { webdriver: 1, no_input_events: 1, fast_submit: 1, returning_account: 1 },
    },
    {
      name: "velocity off consumer networks counts the IP, /24 and hosting network",
      subject: event({ browser }),
      features: {
        geo: { country: "DE", asn: 24940, hosting: true },
        counts: counts({
          domainSignups30Days: { domain: 40 },
          signupsLastHour: { ip: 1, subnet: 3, network: 7, device: 0 },
        }),
      },
      expected: {
        hosting_network: 1,
        signups_ip: 1,
        signups_subnet: 2,
        signups_network: 3,
        returning_account: 1,
      },
    },
    {
      name: "on a home network the address is shared: only the device is counted",
      subject: event({ browser }),
      features: {
        counts: counts({
          domainSignups30Days: { domain: 40 },
          signupsLastHour: { ip: 9, subnet: 9, network: 9, device: 1 },
        }),
      },
      expected: { signups_device: 1, returning_account: 1 },
    },
    {
      name: "a known bot's user agent counts; a backend that sends none says nothing",
      subject: event({ browser, userAgent: "python-requests/2.31" }),
      features: { bot: true },
      expected: { bot_user_agent: 1, returning_account: 1 },
    },
    {
      name: "no user agent at all",
      subject: event({ browser, userAgent: null }),
      features: {},
      expected: { returning_account: 1 },
    },
    {
      name: "a browser time zone foreign to the address's country",
      subject: event({ browser, timezone: "Asia/Manila" }),
      features: { timezoneFitsCountry: false },
      expected: { timezone_mismatch: 1, returning_account: 1 },
    },
    {
      name: "but not on a hosting network (a VPN exit the person picked)",
      subject: event({ browser, timezone: "Asia/Manila" }),
      features: { timezoneFitsCountry: false, geo: { country: "NL", asn: 60068, hosting: true } },
      expected: { hosting_network: 1, returning_account: 1 },
    },
    {
      name: "a checkout by an email with 2 refunds and a dispute",
      subject: event({ type: "checkout", browser }),
      features: { stripeHistory: { refunds: 2, disputes: 1 } },
      expected: { refunds: 1.585, disputes: 1, returning_account: 1 },
    },
    {
      name: "the 201st request in a minute from an address, capped",
      subject: event({ type: "request", browser }),
      features: { counts: counts({ requestsLastMinute: { ip: 200, device: 15 } }) },
      expected: { requests_per_minute: 6, returning_account: 1 },
    },
    {
      name: "a household's pages: up to a person's pace, nothing to say",
      subject: event({ type: "request", browser }),
      features: { counts: counts({ requestsLastMinute: { ip: 6, device: 3 } }) },
      expected: { returning_account: 1 },
    },
    {
      name: "a scraper's 22nd page in a minute: counted past a person's pace",
      subject: event({ type: "request", browser }),
      features: { counts: counts({ requestsLastMinute: { ip: 2, device: 21 } }) },
      expected: { requests_per_minute: 4, returning_account: 1 },
    },
    {
      name: "a referral naming a referrer first seen 2 h ago, its 3rd this hour",
      subject: event({ type: "referral", browser, referrerUserId: "u_ref" }),
      features: {
        links: links({ referrerFirstSeen: NOW - 120 * MIN }),
        counts: counts({ referralsLastHour: { referrer: 2 } }),
      },
      expected: { referrals_to_referrer: 1.585, referrer_young: 1, returning_account: 1 },
    },
  ])("$name", ({ subject, features, expected }) => {
    expect(byKey(signalsOf(subject, policy(), on(features)))).toEqual(expected);
  });

  it("a made-up address at a domain first seen this hour, with others like it from other networks", () => {
    const signals = signalsOf(
      event({ email: "kim4821@fresh-inbox.io", browser }),
      policy(),
      on({
        counts: counts({
          domainSignups30Days: { domain: 5 },
          domainSignupsLastHour: { domain: 5, domainNet: 0, domainMadeUp: 3, domainMadeUpNet: 0 },
        }),
      }),
    );
    expect(byKey(signals)).toEqual({
      new_email_domain: 1,
      domain_signups: 2,
      returning_account: 1,
    });
  });

  it("a person's address at a company's new domain is context, never counted as a farm", () => {
    for (const email of [
      "kim.lee@acme.io",
      "klee@acme.io",
      "kim@acme.io",
      "kim.lee+warden@acme.io",
    ]) {
      const signals = signalsOf(
        event({ email, browser }),
        policy(),
        on({
          counts: counts({
            domainSignups30Days: { domain: 19 },
            domainSignupsLastHour: {
              domain: 19,
              domainNet: 1,
              domainMadeUp: 0,
              domainMadeUpNet: 0,
            },
          }),
        }),
      );
      expect(byKey(signals)).toEqual({ new_email_domain: 1, returning_account: 1 });
    }
  });

  it("a big mailbox provider is never a new domain", () => {
    const signals = signalsOf(
      event({ email: "kim@gmail.com", browser }),
      policy(),
      on({ counts: counts() }),
    );
    expect(byKey(signals)).toEqual({ returning_account: 1 });
  });

  it("says in words what it saw", () => {
    const [linked] = signalsOf(
      event({ browser }),
      policy(),
      on({
        links: links({
          firstSeenLastHour: 6,
          firstSeenLastDay: 6,
          through: [{ kind: "card", accounts: 6 }],
          accountFirstSeen: NOW - 3 * MIN,
        }),
      }),
    ).filter((s) => s.signal !== "account_new");
    expect(linked?.detail).toBe("linked to 6 accounts first seen in the last hour through card");
  });

  it("lists only signals with something to say, each a known key with a finite value", () => {
    const signals = signalsOf(
      event({ email: "a@mailinator.com", deviceId: null, timezone: "Asia/Manila" }),
      policy(),
      on({
        disposableDomains: new Set(["mailinator.com"]),
        geo: null,
        timezoneFitsCountry: false,
        bot: true,
      }),
    );
    for (const s of signals) {
      expect(SIGNAL_KEYS).toContain(s.signal);
      expect(s.value).not.toBe(0);
      expect(Number.isFinite(s.value)).toBe(true);
    }
  });
});
