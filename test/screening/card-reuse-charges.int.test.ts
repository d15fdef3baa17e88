/**
 * rule_cc_reuse on Stripe charges: the 4th email paying with one card in 30 days is refunded
 * like the Standard rules refund, and shows as a Custom Rule block on the dashboard.
 */
import { describe, expect, it } from "vitest";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { turnOn } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

describe.each(DB_KINDS)("rule_cc_reuse on Stripe charges (%s)", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  it("refunds the charge of the 4th email on one card, and only that one", async () => {
    const merchant = await signedInMerchant(t, `cards-${kind}@example.com`);
    const { path, webhookSecret } = await connectStripe(merchant);
    await turnOn(merchant, "rule_cc_reuse");
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const charges = [1, 2, 3, 4].map((n) =>
      buildCharge({
        email: `payer${n}@example.com`,
        last4: "4000",
        cardCountry: "US",
        created: now - 60 * (5 - n),
      }),
    );
    const fingerprints = new Set(charges.map((c) => c.payment_method_details?.card?.fingerprint));
    expect(fingerprints.size).toBe(1);
    for (const charge of charges) {
      const res = await deliver(
        t,
        path,
        buildEvent("charge.succeeded", charge, { created: charge.created }),
        webhookSecret,
      );
      expect(res.status).toBe(200);
    }
    const rows = await t.prisma.transaction.findMany({
      where: { accountId: merchant.accountId },
      orderBy: { created: "asc" },
    });
    expect(rows.map((row) => row.blockedBy)).toEqual([null, null, null, "custom_rule"]);
    expect(rows[3]).toMatchObject({
      outcome: "blocked",
      actionKind: "refund",
      ruleReason: "card used by 4 different users or emails in 30 days (limit 3)",
    });
    await t.app.services.stripeActions.runDue();
    const refunds = t.stripe.callsTo("POST", "/v1/refunds");
    expect(refunds).toHaveLength(1);
    const dashboard =
      await merchant.api.json<{ id: string; blocked_by: string | null }[]>("/api/dashboard");
    expect(dashboard.body.find((tx) => tx.id === charges[3]?.id)?.blocked_by).toBe("Custom Rule");
  });
});
