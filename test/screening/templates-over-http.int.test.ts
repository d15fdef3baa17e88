/**
 * Each template over HTTP with no rule flag on: turning the template on is enough, and it
 * acts with its own values.
 */
import { describe, expect, it } from "vitest";
import type { ScreenInput, ScreenResult } from "../../shared/schemas/screening.ts";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

type Case = {
  template: string;
  setup?: (t: TestApp, merchant: Merchant) => Promise<void>;
  before: ScreenInput[];
  event: ScreenInput;
  decision: ScreenResult["decision"];
  rule: string;
  message: RegExp;
};

const CASES: Case[] = [
  {
    template: "template_one_human_one_trial",
    before: [{ type: "signup", email: "temp@mailinator.com" }],
    event: { type: "trial_start", email: "temp@mailinator.com" },
    decision: "block",
    rule: "rule_email",
    message: /disposable email domain mailinator\.com/,
  },
  {
    template: "template_fake_viral_growth_prevention",
    before: [{ type: "signup", user_id: "host", ip: "192.0.2.40" }],
    event: { type: "referral", user_id: "guest", referrer_user_id: "host", ip: "192.0.2.40" },
    decision: "block",
    rule: "rule_promo_abuse",
    message: /self-referral: referrer host shares this ip/,
  },
  {
    template: "template_refund_abuser_flag",
    setup: async (t, merchant) => {
      const { path, webhookSecret } = await connectStripe(merchant);
      const charge = buildCharge({ email: "disputer@example.com", disputed: true });
      expect(
        (await deliver(t, path, buildEvent("charge.updated", charge), webhookSecret)).status,
      ).toBe(200);
    },
    before: [],
    event: { type: "checkout", email: "disputer@example.com" },
    // The rule reviews; so does the score: a dispute alone is one family of evidence
    // (history), held at review however much it weighs (decision 030).
    decision: "review",
    rule: "rule_farming",
    message: /1 dispute\(s\) in 180 days/,
  },
  {
    // Accounts sharing only an address (one no data places) are linked, but not counted as
    // new accounts of one person (decision 023): signup velocity stops the 6th.
    template: "template_account_farm_shield",
    before: [1, 2, 3, 4, 5].map((n) => ({ type: "signup", ip: "192.0.2.41", user_id: `s${n}` })),
    event: { type: "signup", ip: "192.0.2.41", user_id: "s6" },
    decision: "block",
    rule: "rule_signup_velocity",
    message: /6th signup from 192\.0\.2\.41 in 1 h \(limit 5\)/,
  },
  {
    template: "template_stealth_scraper_deterrent",
    before: [],
    event: {
      type: "request",
      ip: "51.15.0.1",
      user_agent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36",
    },
    decision: "review",
    rule: "rule_scraping",
    message: /51\.15\.0\.1 belongs to a hosting provider \(AS12876\)/,
  },
  {
    template: "template_disposable_email_throttle",
    before: [1, 2, 3].map((n) => ({ type: "signup", email: `t${n}@mailinator.com` })),
    event: { type: "signup", email: "t4@mailinator.com" },
    decision: "block",
    rule: "rule_email",
    message: /4 this hour \(limit 3\)/,
  },
];

describe.each(DB_KINDS)("templates over HTTP (%s)", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  it.each(CASES.map((c, i) => [c.template, i, c] as const))(
    "%s acts on its own",
    async (_name, i, c) => {
      t.clock.advance(61 * 60_000);
      const merchant = await signedInMerchant(t, `template${i}-${kind}@example.com`);
      const templates = (await merchant.api.json<Record<string, boolean>>("/api/templates")).body;
      const put = await merchant.api.json("/api/templates", {
        method: "PUT",
        body: { ...templates, [c.template]: true },
      });
      expect(put.status).toBe(200);
      await c.setup?.(t, merchant);
      const backend = await backendOf(t, merchant);
      for (const earlier of c.before)
        expect((await backend.decide(earlier)).decision).toBe("allow");
      const answer = await backend.decide(c.event);
      expect(answer.decision, JSON.stringify(answer.reasons)).toBe(c.decision);
      expect(answer.reasons[0]).toMatchObject({
        rule: c.rule,
        message: expect.stringMatching(c.message),
      });
      // The template reaches screening only: the rule's own flag stays off.
      const rules = await merchant.api.json<Record<string, boolean>>("/api/rules");
      expect(rules.body[c.rule]).toBe(false);
    },
  );
});
