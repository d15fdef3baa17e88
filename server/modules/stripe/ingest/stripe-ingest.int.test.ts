import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildCharge,
  buildDispute,
  buildEarlyFraudWarning,
  buildEvent,
  buildPaymentIntentCapturable,
} from "../../../../test/fixtures/stripe.ts";
import { DB_KINDS } from "../../../../test/helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../../../../test/helpers/merchants.ts";
import { connectStripe, deliver } from "../../../../test/helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp } from "../../../../test/helpers/test-app.ts";

const RULES_ON = {
  rule_high_risk: true,
  rule_country_blocked: true,
  rule_efw: true,
  rule_ip: false,
  rule_email: true,
  rule_promo_abuse: false,
  rule_scraping: false,
  rule_farming: false,
  rule_signup_velocity: false,
  rule_promo_velocity: false,
  rule_entropy: false,
  rule_timezone_mismatch: false,
  rule_referrer_mismatch: false,
  rule_cc_reuse: false,
  rule_device_fingerprint_reuse: false,
  risk_level_threshold: 70,
};

describe.each(DB_KINDS)("Stripe webhooks on %s", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  let hook: { path: string; webhookSecret: string };

  beforeAll(async () => {
    t = await startTestApp(kind);
    merchant = await signedInMerchant(t, `stripe-${kind}@example.com`);
    hook = await connectStripe(merchant);
    const rules = await merchant.api.json("/api/rules", { method: "PUT", body: RULES_ON });
    expect(rules.status).toBe(200);
    const blocklist = await merchant.api.json("/api/blocklist", {
      method: "PUT",
      body: { countries: ["NG"], email_providers: ["blocked-provider.com"] },
    });
    expect(blocklist.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (event: Stripe.Event, options?: Parameters<typeof deliver>[4]) =>
    deliver(t, hook.path, event, hook.webhookSecret, options);
  const row = (chargeId: string) =>
    t.prisma.transaction.findUniqueOrThrow({
      where: { accountId_chargeId: { accountId: merchant.accountId, chargeId } },
    });
  const refundCalls = (chargeId: string) =>
    t.stripe.callsTo("POST", "/v1/refunds").filter((c) => c.body.charge === chargeId);
  const settled = async (chargeId: string) => {
    await expect
      .poll(async () => (await row(chargeId)).actionStatus, { timeout: 10_000 })
      .not.toBe("pending");
    return row(chargeId);
  };

  it("records an ordinary charge as the merchant should see it", async () => {
    const charge = buildCharge({
      amount: 4900,
      riskScore: 18,
      riskLevel: "normal",
      email: "ok@example.com",
    });
    expect(await send(buildEvent("charge.succeeded", charge))).toEqual({
      status: 200,
      body: { received: true, status: "applied" },
    });
    expect(await row(charge.id)).toMatchObject({
      hasCharge: true,
      amount: 4900,
      currency: "usd",
      email: "ok@example.com",
      created: charge.created,
      outcome: "succeeded",
      riskLevel: "normal",
      riskScore: 18,
      blockedBy: null,
      actionKind: null,
    });
    expect(refundCalls(charge.id)).toHaveLength(0);
  });

  it("keeps an elevated charge under the threshold", async () => {
    const charge = buildCharge({ riskLevel: "elevated", riskScore: 65 });
    await send(buildEvent("charge.succeeded", charge));
    expect(await row(charge.id)).toMatchObject({
      outcome: "succeeded",
      riskLevel: "elevated",
      blockedBy: null,
    });
  });

  it("marks a charge Radar blocked as blocked by Stripe, and does not act on it", async () => {
    const charge = buildCharge({
      status: "failed",
      outcomeType: "blocked",
      riskLevel: "highest",
      riskScore: 91,
    });
    expect(charge.paid).toBe(false);
    expect(charge.outcome?.network_status).toBe("not_sent_to_network");
    await send(buildEvent("charge.failed", charge));
    expect(await row(charge.id)).toMatchObject({
      outcome: "blocked",
      blockedBy: "stripe",
      outcomeReason: "highest_risk_level",
      riskLevel: "highest",
      riskScore: 91,
      actionKind: null,
    });
  });

  it.each([
    [
      "rule_high_risk",
      { riskScore: 82, riskLevel: "elevated" as const },
      "risk score 82 above threshold 70",
    ],
    ["rule_country_blocked", { cardCountry: "NG" }, "card country NG is blocked"],
    [
      "rule_email (provider)",
      { email: "x@blocked-provider.com" },
      "email provider blocked-provider.com is blocked",
    ],
    [
      "rule_email (disposable)",
      { email: "trial@mailinator.com" },
      "disposable email domain mailinator.com (on the disposable-domain list)",
    ],
  ])(
    "refunds a succeeded charge that breaks %s, once, with reason fraudulent",
    async (_rule, options, reason) => {
      const charge = buildCharge(options);
      await send(buildEvent("charge.succeeded", charge));
      const stored = await settled(charge.id);
      expect(stored).toMatchObject({
        outcome: "blocked",
        blockedBy: "custom_rule",
        ruleReason: reason,
        actionKind: "refund",
        actionStatus: "done",
      });
      const calls = refundCalls(charge.id);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({
        body: { charge: charge.id, reason: "fraudulent" },
        idempotencyKey: `warden:${charge.id}:refund`,
      });
    },
  );

  it("refunds a charge once an actionable early fraud warning arrives for it", async () => {
    const charge = buildCharge({ riskScore: 30 });
    await send(buildEvent("charge.succeeded", charge));
    expect((await row(charge.id)).blockedBy).toBeNull();
    const warning = buildEarlyFraudWarning(charge, {
      actionable: true,
      fraudType: "made_with_stolen_card",
    });
    await send(
      buildEvent("radar.early_fraud_warning.created", warning, { created: charge.created + 60 }),
    );
    expect(await settled(charge.id)).toMatchObject({
      efwActionable: true,
      efwFraudType: "made_with_stolen_card",
      blockedBy: "custom_rule",
      ruleReason: "actionable early fraud warning (made_with_stolen_card)",
      actionStatus: "done",
    });
    expect(refundCalls(charge.id)).toHaveLength(1);
  });

  it("fetches the charge from Stripe when its warning arrives first", async () => {
    const charge = buildCharge({ riskScore: 25 });
    t.stripe.charges.set(charge.id, charge);
    const warning = buildEarlyFraudWarning(charge);
    await send(buildEvent("radar.early_fraud_warning.created", warning));
    expect(await settled(charge.id)).toMatchObject({
      hasCharge: true,
      amount: charge.amount,
      actionStatus: "done",
    });
    expect(t.stripe.callsTo("GET", `/v1/charges/${charge.id}`)).toHaveLength(1);
  });

  it("cancels the PaymentIntent of an authorized, uncaptured charge instead of refunding", async () => {
    const charge = buildCharge({ captured: false, riskScore: 88, riskLevel: "elevated" });
    await send(buildEvent("charge.succeeded", charge));
    await send(
      buildEvent("payment_intent.amount_capturable_updated", buildPaymentIntentCapturable(charge)),
    );
    expect(await settled(charge.id)).toMatchObject({
      actionKind: "cancel",
      actionStatus: "done",
      blockedBy: "custom_rule",
    });
    const cancels = t.stripe.callsTo("POST", `/v1/payment_intents/${charge.payment_intent}/cancel`);
    expect(cancels).toHaveLength(1);
    expect(cancels[0]?.idempotencyKey).toBe(`warden:${charge.payment_intent}:cancel`);
    expect(refundCalls(charge.id)).toHaveLength(0);
  });

  it("marks a disputed charge, and records a refund and a JPY amount as they are", async () => {
    const disputed = buildCharge({});
    await send(buildEvent("charge.succeeded", disputed));
    await send(buildEvent("charge.dispute.created", buildDispute(disputed)));
    expect(await row(disputed.id)).toMatchObject({ disputed: true, outcome: "disputed" });

    const refunded = buildCharge({ amount: 2900 });
    await send(buildEvent("charge.succeeded", refunded));
    await send(
      buildEvent(
        "charge.refunded",
        { ...refunded, refunded: true, amount_refunded: 2900 } as Stripe.Charge,
        { created: refunded.created + 30 },
      ),
    );
    expect(await row(refunded.id)).toMatchObject({
      refunded: true,
      amountRefunded: 2900,
      outcome: "refunded",
    });

    const yen = buildCharge({ amount: 5000, currency: "jpy" });
    await send(buildEvent("charge.succeeded", yen));
    expect(await row(yen.id)).toMatchObject({ amount: 5000, currency: "jpy" });
  });

  it("stores a duplicate delivery once and acts once", async () => {
    const charge = buildCharge({ riskScore: 95, riskLevel: "highest" });
    const event = buildEvent("charge.succeeded", charge);
    const first = await send(event);
    const second = await send(event);
    expect(first.body.status).toBe("applied");
    expect(second).toEqual({ status: 200, body: { received: true, status: "duplicate" } });
    await settled(charge.id);
    expect(refundCalls(charge.id)).toHaveLength(1);
    expect(await t.prisma.stripeEvent.count({ where: { eventId: event.id } })).toBe(1);
  });

  it("never lets an older event overwrite newer charge state", async () => {
    const charge = buildCharge({ amount: 3900, riskScore: 10 });
    const refunded = { ...charge, refunded: true, amount_refunded: 3900 } as Stripe.Charge;
    await send(buildEvent("charge.refunded", refunded, { created: charge.created + 100 }));
    await send(buildEvent("charge.succeeded", charge, { created: charge.created }));
    await send(
      buildEvent(
        "charge.updated",
        { ...charge, receipt_email: "old@example.com" } as Stripe.Charge,
        { created: charge.created + 1 },
      ),
    );
    expect(await row(charge.id)).toMatchObject({
      refunded: true,
      amountRefunded: 3900,
      outcome: "refunded",
      lastEventAt: charge.created + 100,
    });

    const pending = buildCharge({ status: "pending", riskScore: 10 });
    await send(
      buildEvent(
        "charge.succeeded",
        { ...pending, status: "succeeded", paid: true, captured: true } as Stripe.Charge,
        { created: pending.created + 50 },
      ),
    );
    await send(buildEvent("charge.pending", pending, { created: pending.created }));
    expect(await row(pending.id)).toMatchObject({ status: "succeeded", outcome: "succeeded" });
  });

  it("records an event type it does not handle as ignored, with 200", async () => {
    const event = buildEvent("customer.created", { id: "cus_TestIgnored" });
    expect(await send(event)).toEqual({ status: 200, body: { received: true, status: "ignored" } });
    expect(await t.prisma.stripeEvent.findFirst({ where: { eventId: event.id } })).toMatchObject({
      status: "ignored",
    });
  });

  it.each([
    ["a tampered body", { tamper: (p: string) => p.replace('"amount":4900', '"amount":1') }, 400],
    ["a stale signature", { timestamp: Math.floor(Date.now() / 1000) - 301 }, 400],
    ["a missing signature", { signature: null }, 400],
    ["a wrong secret", { signature: "t=1,v1=deadbeef" }, 400],
  ])("refuses %s with %s and stores nothing", async (_name, options, status) => {
    const charge = buildCharge({ amount: 4900 });
    const event = buildEvent("charge.succeeded", charge);
    const result = await send(event, options);
    expect(result.status).toBe(status);
    expect(await t.prisma.stripeEvent.count({ where: { eventId: event.id } })).toBe(0);
    expect(await t.prisma.transaction.count({ where: { chargeId: charge.id } })).toBe(0);
  });

  it("answers an unknown endpoint with 404 and stores nothing", async () => {
    const event = buildEvent("charge.succeeded", buildCharge({}));
    const result = await deliver(
      t,
      "/webhooks/stripe/00000000-0000-0000-0000-000000000000",
      event,
      hook.webhookSecret,
    );
    expect(result.status).toBe(404);
    expect(await t.prisma.stripeEvent.count({ where: { eventId: event.id } })).toBe(0);
  });

  it("keeps accounts apart: another merchant's secret cannot write here, nor see these rows", async () => {
    const other = await signedInMerchant(t, `other-${kind}@example.com`);
    const otherHook = await connectStripe(other);
    const charge = buildCharge({ amount: 1234 });
    expect(
      (await deliver(t, hook.path, buildEvent("charge.succeeded", charge), otherHook.webhookSecret))
        .status,
    ).toBe(400);
    expect(
      (
        await deliver(
          t,
          otherHook.path,
          buildEvent("charge.succeeded", charge),
          otherHook.webhookSecret,
        )
      ).status,
    ).toBe(200);
    expect(await t.prisma.transaction.count({ where: { chargeId: charge.id } })).toBe(1);
    expect(
      await t.prisma.transaction.count({
        where: { chargeId: charge.id, accountId: merchant.accountId },
      }),
    ).toBe(0);
  });

  it("retries a refund while Stripe fails, and refunds exactly once", async () => {
    t.stripe.failNext(2, 500);
    const charge = buildCharge({ riskScore: 97, riskLevel: "highest" });
    await send(buildEvent("charge.succeeded", charge));
    const action = () => t.prisma.stripeAction.findFirstOrThrow({ where: { chargeId: charge.id } });
    await expect
      .poll(async () => (await action()).lastError, { timeout: 10_000 })
      .toBe("Stripe is having a bad day");
    expect(await action()).toMatchObject({ status: "pending", attempts: 1 });
    expect((await row(charge.id)).actionStatus).toBe("pending");

    for (let i = 0; i < 2; i++) {
      t.clock.advance(10 * 60_000);
      await t.app.services.stripeActions.runDue();
    }
    expect(await action()).toMatchObject({ status: "done", attempts: 3, lastError: null });
    const calls = refundCalls(charge.id);
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.idempotencyKey))).toEqual(
      new Set([`warden:${charge.id}:refund`]),
    );
    expect((await row(charge.id)).actionStatus).toBe("done");
  });

  it("shows Stripe's message when Stripe refuses a refund", async () => {
    t.stripe.failNext(1, 400, "This charge cannot be refunded right now.");
    const charge = buildCharge({ riskScore: 99, riskLevel: "highest" });
    await send(buildEvent("charge.succeeded", charge));
    expect(await settled(charge.id)).toMatchObject({
      actionStatus: "failed",
      actionError: "This charge cannot be refunded right now.",
    });
  });
});

describe("a restart between the decision and the Stripe call", () => {
  it("still refunds exactly once, and a redelivery after it changes nothing", async () => {
    const first = await startTestApp("embedded", { runStripeActions: false });
    const merchant = await signedInMerchant(first, "restart@example.com");
    const hook = await connectStripe(merchant);
    await merchant.api.json("/api/rules", { method: "PUT", body: RULES_ON });
    const charge = buildCharge({ riskScore: 90, riskLevel: "highest" });
    const event = buildEvent("charge.succeeded", charge);
    expect((await deliver(first, hook.path, event, hook.webhookSecret)).status).toBe(200);
    expect(
      await first.prisma.stripeAction.findFirst({ where: { chargeId: charge.id } }),
    ).toMatchObject({ status: "pending", attempts: 0 });
    expect(first.stripe.callsTo("POST", "/v1/refunds")).toHaveLength(0);
    const database = first.database;
    await first.app.close();

    // The same data dir, as a real restart has: it holds the generated encryption key.
    const second = await startTestApp("embedded", {
      database,
      env: { DATA_DIR: first.config.dataDir },
    });
    try {
      await expect
        .poll(
          async () =>
            (await second.prisma.stripeAction.findFirstOrThrow({ where: { chargeId: charge.id } }))
              .status,
          { timeout: 10_000 },
        )
        .toBe("done");
      expect(second.stripe.callsTo("POST", "/v1/refunds")).toHaveLength(1);
      const again = await deliver(second, hook.path, event, hook.webhookSecret);
      expect(again.body.status).toBe("duplicate");
      await second.app.services.stripeActions.runDue();
      expect(second.stripe.callsTo("POST", "/v1/refunds")).toHaveLength(1);
    } finally {
      await second.close();
      await first.smtp.close();
      await first.stripe.close();
      await database.close();
    }
  });
});
