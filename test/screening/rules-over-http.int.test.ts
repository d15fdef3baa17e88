/**
 * Every advanced rule through the real path: API key, policy, features, the counting query
 * against the stored screenings, the engine, the answer. One merchant per scenario, so no
 * scenario's events count for another.
 */
import { describe, expect, it } from "vitest";
import type { ScreenInput, ScreenResult } from "../../shared/schemas/screening.ts";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { allowOrigins } from "../helpers/collector.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const BROWSER =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

type Scenario = {
  name: string;
  rules: string[];
  settings?: Record<string, Record<string, unknown>>;
  blocklist?: { countries: string[]; email_providers: string[] };
  setup?: (ctx: { t: TestApp; merchant: Merchant; backend: Backend }) => Promise<void>;
  before: ScreenInput[];
  event: ScreenInput;
  expect: { decision: ScreenResult["decision"]; rule?: string; message?: RegExp };
};

const SCENARIOS: Scenario[] = [
  {
    name: "rule_promo_abuse: the same email redeems a code twice",
    rules: ["rule_promo_abuse"],
    before: [{ type: "promo_redemption", promo_code: "WELCOME", email: "ann@example.com" }],
    event: { type: "promo_redemption", promo_code: "WELCOME", email: "ANN@example.com" },
    expect: {
      decision: "block",
      rule: "rule_promo_abuse",
      message: /already redeemed by this email/,
    },
  },
  {
    name: "rule_promo_abuse: another code by the same email is fine",
    rules: ["rule_promo_abuse"],
    before: [{ type: "promo_redemption", promo_code: "WELCOME", email: "ann@example.com" }],
    event: { type: "promo_redemption", promo_code: "SPRING", email: "ann@example.com" },
    expect: { decision: "allow" },
  },
  {
    name: "rule_promo_abuse: a self-referral from the referrer's own device is reviewed (a sibling on the family laptop)",
    rules: ["rule_promo_abuse"],
    before: [{ type: "signup", user_id: "u_ref", device_id: "dev-ref", ip: "192.0.2.50" }],
    event: { type: "referral", user_id: "u_new", referrer_user_id: "u_ref", device_id: "dev-ref" },
    expect: { decision: "review", message: /self-referral: referrer u_ref shares this device/ },
  },
  {
    name: "rule_scraping: the 4th request in a minute past a limit of 3",
    rules: ["rule_scraping"],
    settings: { rule_scraping: { requests_per_minute: 3 } },
    before: [1, 2, 3].map(() => ({ type: "request", ip: "192.0.2.60", user_agent: BROWSER })),
    event: { type: "request", ip: "192.0.2.60", user_agent: BROWSER },
    expect: { decision: "block", message: /^4th request from 192\.0\.2\.60 in 1 min \(limit 3\)$/ },
  },
  {
    name: "rule_scraping: a bot's user agent is reviewed",
    rules: ["rule_scraping"],
    before: [],
    event: { type: "request", ip: "192.0.2.61", user_agent: "python-requests/2.31" },
    expect: { decision: "review", message: /known bot/ },
  },
  {
    name: "rule_farming: a 4th account on one device",
    rules: ["rule_farming"],
    before: [1, 2, 3].map((n) => ({ type: "signup", user_id: `farm${n}`, device_id: "dev-farm" })),
    event: { type: "signup", user_id: "farm4", device_id: "dev-farm" },
    expect: {
      decision: "block",
      message: /this device already has 3 accounts in 30 days \(limit 3\)/,
    },
  },
  {
    name: "rule_farming: a checkout by an email with 2 refunds in Warden's Stripe records",
    rules: ["rule_farming"],
    setup: async ({ t, merchant }) => {
      const { path, webhookSecret } = await connectStripe(merchant);
      for (const n of [1, 2]) {
        const charge = buildCharge({
          email: "refunder@example.com",
          refunded: true,
          last4: `100${n}`,
        });
        expect(
          (await deliver(t, path, buildEvent("charge.refunded", charge), webhookSecret)).status,
        ).toBe(200);
      }
    },
    before: [],
    event: { type: "checkout", email: "refunder@example.com", amount: 4900, currency: "usd" },
    expect: { decision: "review", message: /had 2 refunds in 180 days/ },
  },
  {
    name: "rule_promo_velocity: the 3rd redemption of a code past 2 in 10 minutes",
    rules: ["rule_promo_velocity"],
    settings: { rule_promo_velocity: { per_code_per_10_minutes: 2 } },
    before: [1, 2].map((n) => ({
      type: "promo_redemption",
      promo_code: "FLASH",
      email: `f${n}@example.com`,
    })),
    event: { type: "promo_redemption", promo_code: "FLASH", email: "f3@example.com" },
    expect: { decision: "block", message: /^3rd redemption of FLASH in 10 min \(limit 2\)$/ },
  },
  {
    name: "rule_entropy: a random-looking email is reviewed",
    rules: ["rule_entropy"],
    before: [],
    event: { type: "signup", email: "xk7qzp3v9wq2@example.com" },
    expect: { decision: "review", rule: "rule_entropy" },
  },
  {
    name: "rule_entropy: a person's email passes",
    rules: ["rule_entropy"],
    before: [],
    event: { type: "signup", email: "maria.gonzalez1987@example.com" },
    expect: { decision: "allow" },
  },
  {
    // A home ISP's address (Comcast): on a hosting network the rule abstains (VPN exits).
    name: "rule_timezone_mismatch: a US IP with a Tokyo browser",
    rules: ["rule_timezone_mismatch"],
    before: [],
    event: { type: "signup", ip: "73.10.2.3", timezone: "Asia/Tokyo" },
    expect: { decision: "review", message: /Asia\/Tokyo is not a timezone of US/ },
  },
  {
    name: "rule_timezone_mismatch: a US IP with a Chicago browser",
    rules: ["rule_timezone_mismatch"],
    before: [],
    event: { type: "signup", ip: "73.10.2.3", timezone: "America/Chicago" },
    expect: { decision: "allow" },
  },
  {
    name: "rule_referrer_mismatch: an origin that is not the merchant's",
    rules: ["rule_referrer_mismatch"],
    setup: ({ merchant }) => allowOrigins(merchant, ["https://shop.example.com"]),
    before: [],
    event: { type: "signup", origin: "https://evil.example.net" },
    expect: {
      decision: "block",
      message: /origin evil\.example\.net is not one of your allowed origins/,
    },
  },
  {
    name: "rule_cc_reuse: a 4th user on one card",
    rules: ["rule_cc_reuse"],
    before: [1, 2, 3].map((n) => ({
      type: "checkout",
      user_id: `cc${n}`,
      card_fingerprint: "fp_shared",
    })),
    event: { type: "checkout", user_id: "cc4", card_fingerprint: "fp_shared" },
    expect: {
      decision: "block",
      message: /card used by 4 different users or emails in 30 days \(limit 3\)/,
    },
  },
  {
    name: "rule_cc_reuse: a 6th card from one IP in an hour (card testing)",
    rules: ["rule_cc_reuse"],
    before: [1, 2, 3, 4, 5].map((n) => ({
      type: "checkout",
      ip: "192.0.2.70",
      card_fingerprint: `fp_t${n}`,
    })),
    event: { type: "checkout", ip: "192.0.2.70", card_fingerprint: "fp_t6" },
    expect: { decision: "block", message: /6 different cards from one ip in 1 h \(limit 5\)/ },
  },
  {
    name: "rule_device_fingerprint_reuse: a 4th user on one device",
    rules: ["rule_device_fingerprint_reuse"],
    before: [1, 2, 3].map((n) => ({ type: "login", user_id: `d${n}`, device_id: "dev-shared" })),
    event: { type: "login", user_id: "d4", device_id: "dev-shared" },
    expect: { decision: "block", message: /device dev-shared used by 4 different users/ },
  },
  {
    name: "rule_email: a disposable domain at signup",
    rules: ["rule_email"],
    before: [],
    event: { type: "signup", email: "temp@mailinator.com" },
    expect: { decision: "block", message: /disposable email domain mailinator\.com/ },
  },
  {
    name: "rule_ip: one trial per card (card_farm: a new device and inbox, a card used before)",
    rules: ["rule_ip"],
    before: [
      { type: "trial_start", user_id: "cf1", device_id: "dev-cf1", card_fingerprint: "fp_cf" },
    ],
    event: { type: "trial_start", user_id: "cf2", device_id: "dev-cf2", card_fingerprint: "fp_cf" },
    expect: { decision: "block", message: /already started with this card \(fp_cf\)/ },
  },
  {
    name: "rule_farming: an account linked through one card to 3 accounts new this hour",
    rules: ["rule_farming"],
    settings: { rule_farming: { max_accounts: 50 } },
    before: [1, 2, 3].map((n) => ({
      type: "signup",
      user_id: `lk${n}`,
      device_id: `dev-lk${n}`,
      card_fingerprint: "fp_lk",
    })),
    event: { type: "signup", user_id: "lk4", device_id: "dev-lk4", card_fingerprint: "fp_lk" },
    expect: {
      decision: "block",
      rule: "rule_farming",
      message: /^linked to 3 accounts first seen in the last hour, through card \(limit 2\)$/,
    },
  },
  {
    name: "rule_farming: a second account made on one phone within the hour is reviewed",
    rules: ["rule_farming"],
    before: [{ type: "signup", user_id: "ph1", device_id: "dev-phone", user_agent: PHONE }],
    event: { type: "signup", user_id: "ph2", device_id: "dev-phone", user_agent: PHONE },
    expect: { decision: "review", message: /^2nd account made on this phone in 1 h/ },
  },
  {
    name: "rule_promo_abuse: the 2nd referral in an hour naming a referrer made the day before is reviewed",
    rules: ["rule_promo_abuse"],
    setup: async ({ t, backend }) => {
      expect((await backend.decide({ type: "signup", user_id: "aged_ref" })).decision).toBe(
        "allow",
      );
      t.clock.advance(24 * 60 * 60_000);
    },
    before: [
      { type: "referral", user_id: "rf1", referrer_user_id: "aged_ref", device_id: "dev-rf1" },
    ],
    event: { type: "referral", user_id: "rf2", referrer_user_id: "aged_ref", device_id: "dev-rf2" },
    expect: {
      decision: "review",
      message: /^2nd referral in 1 h naming aged_ref, an account first seen 24 h ago/,
    },
  },
  {
    name: "rule_promo_abuse: referral_friends: a customer of 60 days who logged in 3 days ago is not a new referrer",
    rules: ["rule_promo_abuse"],
    settings: { rule_promo_abuse: { referrals_per_new_referrer_per_hour: 2 } },
    setup: async ({ t, backend }) => {
      expect((await backend.decide({ type: "signup", user_id: "old_ref" })).decision).toBe("allow");
      t.clock.advance(57 * 24 * 60 * 60_000);
      expect((await backend.decide({ type: "login", user_id: "old_ref" })).decision).toBe("allow");
      t.clock.advance(3 * 24 * 60 * 60_000);
    },
    before: ["of1", "of2"].map((user) => ({
      type: "referral" as const,
      user_id: user,
      referrer_user_id: "old_ref",
      device_id: `dev-${user}`,
    })),
    event: { type: "referral", user_id: "of3", referrer_user_id: "old_ref", device_id: "dev-of3" },
    expect: { decision: "allow" },
  },
  {
    name: "rule_signup_velocity: the 6th signup in an hour from one hosting provider, each from its own /24",
    rules: ["rule_signup_velocity"],
    before: [1, 2, 3, 4, 5].map((n) => ({
      type: "signup",
      user_id: `hb${n}`,
      ip: `5.9.${n}.10`,
      device_id: `dev-hb${n}`,
    })),
    event: { type: "signup", user_id: "hb6", ip: "5.9.6.10", device_id: "dev-hb6" },
    expect: { decision: "block", message: /^6th signup from hosting network AS24940 in 1 h/ },
  },
  {
    name: "rule_email: the 3rd signup this hour with a domain new to the site, from different networks",
    rules: ["rule_email"],
    before: [1, 2].map((n) => ({
      type: "signup",
      user_id: `nd${n}`,
      email: `n${n}@inbox7f3a.xyz`,
      ip: `73.${n}.2.3`,
    })),
    event: { type: "signup", user_id: "nd3", email: "n3@inbox7f3a.xyz", ip: "73.3.2.3" },
    expect: {
      decision: "review",
      message:
        /^3rd signup this hour with a made-up address at inbox7f3a\.xyz, a domain new to this site, from different networks \(limit 2\)$/,
    },
  },
  {
    name: "rule_email: a company's remote team on its new domain, each from home: not a farm",
    rules: ["rule_email"],
    before: ["ana.silva", "bjones", "chen.wei", "dmitri", "e.okafor+warden"].map((local, n) => ({
      type: "signup",
      user_id: `rt${n}`,
      email: `${local}@brightloop.io`,
      ip: `73.${n + 10}.2.3`,
    })),
    event: { type: "signup", user_id: "rt6", email: "f.moreau@brightloop.io", ip: "73.20.2.3" },
    expect: { decision: "allow" },
  },
  {
    name: "rule_email: office_onboarding: colleagues signing up with their new domain from one office",
    rules: ["rule_email"],
    before: [1, 2, 3, 4].map((n) => ({
      type: "signup",
      user_id: `ofc${n}`,
      email: `p${n}@acme-widgets.com`,
      ip: "73.9.9.9",
    })),
    event: { type: "signup", user_id: "ofc5", email: "p5@acme-widgets.com", ip: "73.9.9.9" },
    expect: { decision: "allow" },
  },
  {
    name: "rule_email: a typo of gmail.com is reviewed, not blocked",
    rules: ["rule_email"],
    before: [],
    event: { type: "signup", email: "jane@gmial.com" },
    expect: { decision: "review", message: /gmial\.com looks like a typo of gmail\.com/ },
  },
  {
    name: "rule_country_blocked: the IP's country is blocked",
    rules: ["rule_country_blocked"],
    blocklist: { countries: ["US"], email_providers: [] },
    before: [],
    event: { type: "checkout", ip: "8.8.8.8" },
    expect: { decision: "block", message: /IP 8\.8\.8\.8 country US is blocked/ },
  },
];

describe.each(DB_KINDS)("every rule over HTTP (%s)", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  it.each(SCENARIOS.map((s, i) => [s.name, i, s] as const))("%s", async (_name, i, scenario) => {
    // Past the hour of the per-IP signup limit the previous scenarios' merchants used up.
    t.clock.advance(61 * 60_000);
    const merchant = await signedInMerchant(t, `rule${i}-${kind}@example.com`);
    await turnOn(merchant, ...scenario.rules);
    if (scenario.settings) {
      const put = await merchant.api.json("/api/rule-settings", {
        method: "PUT",
        body: scenario.settings,
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
    }
    if (scenario.blocklist) {
      await merchant.api.json("/api/blocklist", { method: "PUT", body: scenario.blocklist });
    }
    const backend = await backendOf(t, merchant);
    await scenario.setup?.({ t, merchant, backend });
    for (const earlier of scenario.before) {
      expect((await backend.decide(earlier)).decision).toBe("allow");
    }
    const answer = await backend.decide(scenario.event);
    expect(answer.decision, JSON.stringify(answer.reasons)).toBe(scenario.expect.decision);
    if (scenario.expect.rule) expect(answer.reasons[0]?.rule).toBe(scenario.expect.rule);
    if (scenario.expect.message)
      expect(answer.reasons[0]?.message).toMatch(scenario.expect.message);
  });
});
