/** rule_ip, rule_promo_abuse, rule_farming, rule_cc_reuse, rule_device_fingerprint_reuse. */
import { describe, expect, it } from "vitest";
import { counts, event, eventFeatures, policy } from "../../../test/fixtures/engine.ts";
import { cardReuse } from "./card-reuse.ts";
import { deviceReuse } from "./device-reuse.ts";
import { farming } from "./farming.ts";
import { oneTrial } from "./one-trial.ts";
import { promoAbuse } from "./promo-abuse.ts";

const on = policy({
  rule_ip: true,
  rule_promo_abuse: true,
  rule_farming: true,
  rule_cc_reuse: true,
  rule_device_fingerprint_reuse: true,
});

describe("rule_ip (one trial per device and per email in 365 days)", () => {
  const trial = event({ type: "trial_start" });
  it.each([
    { prior: { device: 0, card: 0, email: 0 }, message: null },
    {
      // household_shared: the second person of a family on the family laptop.
      prior: { device: 1, card: 0, email: 0 },
      message:
        "a second account's trial on this device (dev_1) in 365 days: 1 other account before it (reviewed: a family may share a device; the third is blocked)",
      review: true,
    },
    {
      prior: { device: 2, card: 0, email: 0 },
      message:
        "a trial was already started with this device (dev_1) in 365 days: 2 other accounts (limit: two trials per device)",
    },
    {
      prior: { device: 0, card: 0, email: 2 },
      message:
        "a trial was already started with this email (janedoe@example.com) in 365 days: 2 other accounts (limit: one trial per email)",
    },
    {
      // card_farm: new device, proxy and inbox per account, one of a handful of cards.
      prior: { device: 0, card: 1, email: 0 },
      message:
        "a trial was already started with this card (card_1) in 365 days: 1 other account (limit: one trial per card)",
    },
    {
      // Email and card block before the device's review.
      prior: { device: 1, card: 1, email: 0 },
      message:
        "a trial was already started with this card (card_1) in 365 days: 1 other account (limit: one trial per card)",
    },
  ])("$prior → $message", ({ prior, message, review }) => {
    const finding = oneTrial.check(
      { ...trial, cardFingerprint: "card_1" },
      on,
      eventFeatures({ counts: counts({ priorTrials: prior }) }),
    );
    expect(finding?.message ?? null).toBe(message);
    expect(finding?.review ?? false).toBe(review ?? false);
  });

  describe('second_trial_on_device: "block" (the merchant\'s strict choice)', () => {
    const strict = policy({ rule_ip: true }, {}, { rule_ip: { second_trial_on_device: "block" } });
    it.each([
      {
        prior: { device: 1, card: 0, email: 0 },
        message:
          "a second account's trial on this device (dev_1) in 365 days: 1 other account before it (limit: one trial per device; you chose to block a second account's trial on a device)",
        observed: 2,
      },
      {
        // Trials from before the choice (or while the rule only monitored) still count.
        prior: { device: 2, card: 0, email: 0 },
        message:
          "a 3rd account's trial on this device (dev_1) in 365 days: 2 other accounts before it (limit: one trial per device; you chose to block a second account's trial on a device)",
        observed: 3,
      },
    ])("$prior → $message", ({ prior, message, observed }) => {
      const finding = oneTrial.check(
        { ...trial, cardFingerprint: "card_1" },
        strict,
        eventFeatures({ counts: counts({ priorTrials: prior }) }),
      );
      // A block: no review flag, so the rule's own action (block unless set to review) applies.
      expect(finding).toEqual({ message, observed, limit: 1 });
    });
  });

  it("only judges trial starts", () => {
    const seen = eventFeatures({ counts: counts({ priorTrials: { device: 3, ip: 3, email: 3 } }) });
    expect(oneTrial.check(event({ type: "signup" }), on, seen)).toBeNull();
  });

  /** Populations of `npm run simulate` that share an address but are different people. */
  it.each([
    ["mobile_cgnat: 40 earlier trials behind a carrier's CGNAT address", 40],
    ["office_onboarding: a colleague started a trial from the office's address", 1],
    ["university_nat: classmates on the campus NAT", 12],
  ])("%s: an IP alone never blocks", (_population, ip) => {
    const seen = eventFeatures({ counts: counts({ priorTrials: { device: 0, ip, email: 0 } }) });
    expect(oneTrial.check(trial, on, seen)).toBeNull();
  });

  it("trial_farm: a Gmail alias of an inbox that already had a trial is the same email", () => {
    const seen = eventFeatures({
      normalizedEmail: "janedoe@gmail.com",
      counts: counts({ priorTrials: { device: 0, ip: 0, email: 1 } }),
    });
    const finding = oneTrial.check(
      event({ type: "trial_start", email: "jane.doe+t3@gmail.com" }),
      on,
      seen,
    );
    expect(finding).toMatchObject({ observed: 2, limit: 1 });
  });
});

describe("rule_promo_abuse", () => {
  it.each([
    { by: { email: 0, device: 0, card: 0 }, message: null },
    {
      by: { email: 1, device: 0, card: 0 },
      message:
        "promo code WELCOME already redeemed by this email: 1 earlier redemption (limit: once per email, device or card)",
    },
    {
      by: { email: 0, device: 0, card: 1 },
      message:
        "promo code WELCOME already redeemed by this card: 1 earlier redemption (limit: once per email, device or card)",
    },
  ])("redemption, earlier by $by → $message", ({ by, message }) => {
    const finding = promoAbuse.check(
      event({ type: "promo_redemption", promoCode: "WELCOME" }),
      on,
      eventFeatures({ counts: counts({ promoRedeemedBy: by }) }),
    );
    expect(finding?.message ?? null).toBe(message);
  });

  const hosting = { geo: { country: "US", asn: 14061, hosting: true } };
  const home = { geo: { country: "US", asn: 7922, hosting: false } };
  it.each([
    {
      shares: { device: 0, ip: 0, card: 0, email: 0 },
      geo: home.geo,
      message: null,
      review: false,
    },
    {
      // referral_friends: a sibling on the family laptop.
      shares: { device: 1, ip: 0, card: 0, email: 0 },
      geo: home.geo,
      message:
        "self-referral: referrer u_9 shares this device: seen on 1 of the referrer's events (limit: none shared)",
      review: true,
    },
    {
      shares: { device: 1, ip: 0, card: 1, email: 0 },
      geo: home.geo,
      message:
        "self-referral: referrer u_9 shares this card: seen on 1 of the referrer's events (limit: none shared)",
      review: false,
    },
    {
      shares: { device: 0, ip: 2, card: 0, email: 0 },
      geo: hosting.geo,
      message:
        "self-referral: referrer u_9 shares this ip: seen on 2 of the referrer's events (limit: none shared)",
      review: false,
    },
    {
      // referral_friends: a friend in the same household, behind its one home address.
      shares: { device: 0, ip: 2, card: 0, email: 0 },
      geo: home.geo,
      message: null,
      review: false,
    },
  ])(
    "referral sharing $shares (hosting: $geo.hosting) → $message",
    ({ shares, geo, message, review }) => {
      const finding = promoAbuse.check(
        event({ type: "referral", referrerUserId: "u_9" }),
        on,
        eventFeatures({ geo, counts: counts({ referrerShares: shares }) }),
      );
      expect(finding?.message ?? null).toBe(message);
      expect(finding?.review ?? false).toBe(review);
    },
  );
});

describe("rule_farming", () => {
  it.each([
    { accountsOn: { device: 2, card: 0 }, message: null },
    {
      accountsOn: { device: 3, card: 0 },
      message: "this device already has 3 accounts in 30 days (limit 3)",
    },
  ])("signup with $accountsOn → $message", ({ accountsOn, message }) => {
    const finding = farming.check(event(), on, eventFeatures({ counts: counts({ accountsOn }) }));
    expect(finding?.message ?? null).toBe(message);
  });

  it.each([
    { history: { refunds: 1, disputes: 0 }, message: null },
    {
      history: { refunds: 2, disputes: 0 },
      message: "this email or card had 2 refunds in 180 days (limit 1)",
    },
    {
      history: { refunds: 0, disputes: 1 },
      message: "this email or card had 1 dispute(s) in 180 days",
    },
  ])("checkout with $history → review: $message", ({ history, message }) => {
    const finding = farming.check(
      event({ type: "checkout" }),
      on,
      eventFeatures({ stripeHistory: history }),
    );
    expect(finding?.message ?? null).toBe(message);
    if (finding) expect(finding.review).toBe(true);
  });
});

describe("rule_cc_reuse (3 users a card in 30 days, 5 cards an identity per hour)", () => {
  const withCard = event({ type: "checkout", cardFingerprint: "fp_1" });
  it.each([
    { usersOnCard: 2, cards: 0, message: null },
    {
      usersOnCard: 3,
      cards: 0,
      message: "card used by 4 different users or emails in 30 days (limit 3)",
    },
    { usersOnCard: 0, cards: 4, message: null },
    { usersOnCard: 0, cards: 5, message: "6 different cards from one user in 1 h (limit 5)" },
  ])(
    "$usersOnCard other users, $cards other cards → $message",
    ({ usersOnCard, cards, message }) => {
      const finding = cardReuse.check(
        withCard,
        on,
        eventFeatures({
          counts: counts({
            usersOnCard: { card: usersOnCard },
            cardsLastHour: { user: cards, email: 0, ip: 0, device: 0 },
          }),
        }),
      );
      expect(finding?.message ?? null).toBe(message);
    },
  );

  it("abstains without a card", () => {
    const busy = eventFeatures({ counts: counts({ usersOnCard: { card: 50 } }) });
    expect(cardReuse.check(event(), on, busy)).toBeNull();
  });

  it.each([
    {
      population: "mobile_cgnat: six shoppers with six cards behind one carrier address",
      geo: { country: "US", asn: 21928, hosting: false },
      message: null,
    },
    {
      population: "card_testing: six cards from one cloud server",
      geo: { country: "US", asn: 14061, hosting: true },
      message: "6 different cards from one ip in 1 h (limit 5)",
    },
  ])("$population → $message", ({ geo, message }) => {
    const finding = cardReuse.check(
      withCard,
      on,
      eventFeatures({
        geo,
        counts: counts({ cardsLastHour: { user: 0, email: 0, ip: 5, device: 0 } }),
      }),
    );
    expect(finding?.message ?? null).toBe(message);
  });
});

describe("rule_device_fingerprint_reuse (3 users a device in 30 days)", () => {
  it.each([
    { others: 2, message: null },
    { others: 3, message: "device dev_1 used by 4 different users or emails in 30 days (limit 3)" },
  ])("$others other users → $message", ({ others, message }) => {
    const finding = deviceReuse.check(
      event(),
      on,
      eventFeatures({ counts: counts({ usersOn: { device: others } }) }),
    );
    expect(finding?.message ?? null).toBe(message);
  });
});
