/**
 * The signals a farm cannot reset cheaply: linked accounts (rule_farming), referrals per
 * referrer (rule_promo_abuse), signups per hosting network (rule_signup_velocity).
 */
import { describe, expect, it } from "vitest";
import { counts, event, eventFeatures, links, policy } from "../../../test/fixtures/engine.ts";
import { farming } from "./farming.ts";
import { promoAbuse } from "./promo-abuse.ts";
import { signupVelocity } from "./signup-velocity.ts";

const NOW = Date.parse("2026-11-26T12:00:00Z");
const MIN = 60_000;
const on = policy({ rule_farming: true, rule_promo_abuse: true, rule_signup_velocity: true });

describe("rule_farming: linked accounts (limit 3 first seen in the last hour)", () => {
  const trial = event({ type: "trial_start" });
  it.each([
    {
      name: "household_shared: a sibling on the family laptop",
      l: links({ accounts: 1, firstSeenLastHour: 1, through: [{ kind: "device", accounts: 1 }] }),
      message: null,
      review: false,
    },
    {
      name: "card_farm: the fourth account on a handful of cards",
      l: links({
        accounts: 3,
        firstSeenLastHour: 3,
        through: [
          { kind: "card", accounts: 3 },
          { kind: "device", accounts: 1 },
        ],
      }),
      message:
        "linked to 3 accounts first seen in the last hour, through card and device (limit 2)",
      review: false,
    },
    {
      name: "an account linked to one denied in review",
      l: links({
        accounts: 1,
        bad: 1,
        firstSeenLastDay: 1,
        through: [{ kind: "email", accounts: 1 }],
      }),
      message: "linked to 1 account blocked, denied in review or labelled fraud, through email",
      review: true,
    },
    {
      name: "a group that appeared every 5 minutes",
      l: links({
        accounts: 2,
        firstSeenLastHour: 2,
        through: [{ kind: "referrer", accounts: 5 }],
        recent: [0, 5, 10, 15, 20].map((m) => NOW - 30 * MIN + m * MIN),
      }),
      message:
        "linked to 5 accounts that appeared at an even pace in the last hour (gaps vary by 0%; people's by 35% or more), through referrer",
      review: true,
    },
  ])("$name", ({ l, message, review }) => {
    const finding = farming.check(trial, on, eventFeatures({ links: l, counts: counts() }));
    expect(finding?.message ?? null).toBe(message);
    expect(finding?.review ?? false).toBe(review);
  });

  const PHONE =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
  const LAPTOP =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
  it.each([
    {
      name: "account_farm_jitter: a 2nd account on one phone in an hour",
      ua: PHONE,
      others: 1,
      message: "2nd account made on this phone in 1 h (limit 1; the 3rd is blocked)",
      review: true,
    },
    {
      name: "account_farm_jitter: the 3rd is blocked",
      ua: PHONE,
      others: 2,
      message: "3rd account made on this phone in 1 h (limit 1; the 3rd is blocked)",
      review: false,
    },
    {
      name: "household_shared: a 2nd account on the family laptop",
      ua: LAPTOP,
      others: 1,
      message: null,
      review: false,
    },
    { name: "a phone's first account", ua: PHONE, others: 0, message: null, review: false },
  ])("$name", ({ ua, others, message, review }) => {
    const l = links({
      accounts: others,
      firstSeenLastHour: others,
      lastHourThrough: others ? { device: others } : {},
      through: others ? [{ kind: "device", accounts: others }] : [],
    });
    const finding = farming.check(
      event({ type: "signup", userAgent: ua }),
      on,
      eventFeatures({ links: l, counts: counts() }),
    );
    expect(finding?.message ?? null).toBe(message);
    expect(finding?.review ?? false).toBe(review);
  });

  it("ignores links at checkout and page requests (not an account's creation)", () => {
    const l = links({
      accounts: 9,
      firstSeenLastHour: 9,
      through: [{ kind: "card", accounts: 9 }],
    });
    for (const type of ["checkout", "request"] as const) {
      expect(
        farming.check(event({ type }), on, eventFeatures({ links: l, counts: counts() })),
      ).toBeNull();
    }
  });
});

describe("rule_promo_abuse: referrals per referrer (50 an hour; 3 for a referrer under 7 days old)", () => {
  const referral = event({ type: "referral", referrerUserId: "ref_1" });
  it.each([
    {
      name: "influencer_referrals: a creator's 30th follower in an hour",
      before: 29,
      firstSeen: NOW - 20 * 24 * 60 * MIN,
      message: null,
    },
    {
      name: "referral_ring: the 51st referral of one old referrer",
      before: 50,
      firstSeen: NOW - 20 * 24 * 60 * MIN,
      message: "51st referral naming ref_1 in 1 h (limit 50)",
    },
    {
      name: "a referrer made 20 minutes ago, 4th referral",
      before: 3,
      firstSeen: NOW - 20 * MIN,
      message:
        "4th referral naming ref_1 in 1 h (limit 3 for a referrer first seen under 7 days ago)",
    },
    {
      name: "aged_referral_ring: the 2nd referral naming a referrer made 30 h ago is reviewed",
      before: 1,
      firstSeen: NOW - 30 * 60 * MIN,
      message:
        "2nd referral in 1 h naming ref_1, an account first seen 30 h ago (reviewed from the 2nd; limit 3)",
    },
    {
      name: "referral_friends: a customer of 8 days, 2nd friend",
      before: 1,
      firstSeen: NOW - 8 * 24 * 60 * MIN,
      message: null,
    },
    {
      name: "a referrer never seen, 4th referral: the general limit",
      before: 3,
      firstSeen: null,
      message: null,
    },
  ])("$name", ({ before, firstSeen, message }) => {
    const finding = promoAbuse.check(
      referral,
      on,
      eventFeatures({
        now: NOW,
        links: links({ referrerFirstSeen: firstSeen }),
        counts: counts({ referralsLastHour: { referrer: before } }),
      }),
    );
    expect(finding?.message ?? null).toBe(message);
  });
});

describe("rule_signup_velocity: signups per hosting network (5 an hour)", () => {
  const signup = event({ type: "signup", ip: "104.131.0.9" });
  const hosting = { geo: { country: "US", asn: 14061, hosting: true } };
  it.each([
    { name: "consumer_vpn users on one provider", network: 4, geo: hosting.geo, message: null },
    {
      name: "hosting_burst: the 6th across the provider's ranges",
      network: 5,
      geo: hosting.geo,
      message: "6th signup from hosting network AS14061 in 1 h, across its ranges (limit 5)",
    },
    {
      name: "a consumer ISP is never counted per network",
      network: 50,
      geo: { country: "US", asn: 7922, hosting: false },
      message: null,
    },
  ])("$name", ({ network, geo, message }) => {
    const finding = signupVelocity.check(
      signup,
      on,
      eventFeatures({
        geo,
        counts: counts({ signupsLastHour: { ip: 0, subnet: 0, network, device: 0 } }),
      }),
    );
    expect(finding?.message ?? null).toBe(message);
  });
});
