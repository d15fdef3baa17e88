/**
 * A charge the rules sent to review, then refunded by a rule (an actionable early fraud
 * warning arrives later): the refund closes the open review, denied by "rule" with the rule's
 * reason, in the transaction that records the refund done, with its review.denied event. A
 * refund Stripe refuses leaves the review open for a person. Over real HTTP, signed Stripe
 * webhooks and the Stripe stand-in, on both databases.
 */
import { describe, expect, it } from "vitest";
import type { ChargeReviewDetail } from "../../shared/schemas/review.ts";
import { buildCharge, buildEarlyFraudWarning, buildEvent } from "../fixtures/stripe.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { type WebhookReceiver, withTestAppAndReceiver } from "../with-test-app.ts";

describe.each(DB_KINDS)("a rule's refund and the charge's review (%s)", (kind) => {
  let t: TestApp;
  let hook: WebhookReceiver;
  withTestAppAndReceiver(kind, (app, started) => {
    t = app;
    hook = started;
  });

  /** A merchant whose high-risk rule answers review and whose early-fraud-warning rule refunds. */
  async function reviewingMerchant(name: string) {
    const merchant = await signedInMerchant(t, `${name}-${kind}@example.com`);
    const stripe = await connectStripe(merchant);
    await turnOn(merchant, "rule_high_risk", "rule_efw");
    const put = await merchant.api.json("/api/rule-settings", {
      method: "PUT",
      body: { rule_high_risk: { action: "review" }, rule_efw: { action: "block" } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const send = async (event: Parameters<typeof deliver>[2]) =>
      expect((await deliver(t, stripe.path, event, stripe.webhookSecret)).status).toBe(200);
    const charge = buildCharge({
      riskScore: 85,
      riskLevel: "elevated",
      email: `${name}@buyer.example`,
    });
    await send(buildEvent("charge.succeeded", charge));
    const row = () =>
      t.prisma.transaction.findUniqueOrThrow({
        where: { accountId_chargeId: { accountId: merchant.accountId, chargeId: charge.id } },
      });
    expect(await row()).toMatchObject({ reviewStatus: "open", refunded: false });
    const warning = buildEvent("radar.early_fraud_warning.created", buildEarlyFraudWarning(charge));
    return { merchant, charge, row, warn: () => send(warning) };
  }

  it("closes the open review, denied by rule, when the rule's refund is done, with its event", async () => {
    const { merchant, charge, row, warn } = await reviewingMerchant("refunded");
    const backend = await backendOf(t, merchant);
    const created = await merchant.browser.mutate("webhooks.createEndpoint", {
      url: hook.url,
      events: ["review.denied", "charge.refunded_by_rule"],
    });
    expect(created, JSON.stringify(created)).toMatchObject({ ok: true });

    await warn();
    await expect.poll(async () => (await row()).actionStatus, { timeout: 15_000 }).toBe("done");
    expect(t.stripe.refundsMade.get(charge.id)).toBe(1);
    const stored = await row();
    expect(stored).toMatchObject({
      reviewStatus: "denied",
      reviewedBy: "rule",
      reviewNote: expect.stringContaining("early fraud warning"),
      refunded: true,
    });
    expect(stored.reviewedAt).toBeInstanceOf(Date);
    // Out of the queue, and the charge's review says who closed it, over REST too.
    const queue = await merchant.browser.query<{ items: { id: string }[] }>("review.queue", {});
    expect(queue).toMatchObject({ ok: true, data: { items: [] } });
    const detail = await backend.client.json<ChargeReviewDetail>(`/api/v1/charges/${charge.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.review).toMatchObject({ status: "denied", by: "rule" });
    // A person can no longer settle it.
    const late = await backend.client.json(`/api/v1/charges/${charge.id}/decision`, {
      body: { decision: "approve" },
    });
    expect(late.status).toBe(409);
    expect(JSON.stringify(late.body)).toContain("already denied by rule");

    await expect
      .poll(() => hook.types(), { timeout: 15_000 })
      .toEqual(["charge.refunded_by_rule", "review.denied"]);
    expect(hook.ofType("review.denied")?.data).toEqual({
      review: {
        kind: "charge",
        charge_id: charge.id,
        status: "denied",
        by: "rule",
        email: "refunded@buyer.example",
      },
    });
    expect(hook.ofType("charge.refunded_by_rule")?.data).toMatchObject({
      charge: { id: charge.id, action: "refund" },
    });
    // Each stored once, with the refund's record.
    const deliveries = await t.prisma.webhookDelivery.findMany({
      where: { accountId: merchant.accountId },
    });
    expect(deliveries.map((d) => d.eventType).sort()).toEqual([
      "charge.refunded_by_rule",
      "review.denied",
    ]);
  });

  it("leaves the review open for a person when Stripe refuses the refund", async () => {
    const { row, warn } = await reviewingMerchant("refused");
    t.stripe.failNext(1, 400, "This charge cannot be refunded");
    await warn();
    await expect.poll(async () => (await row()).actionStatus, { timeout: 15_000 }).toBe("failed");
    expect(await row()).toMatchObject({ reviewStatus: "open", reviewedBy: null, refunded: false });
  });
});
