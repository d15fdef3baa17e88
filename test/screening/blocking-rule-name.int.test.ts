/**
 * A charge a rule blocks names that rule on the dashboard: blocked_by stays the spec's
 * "Custom Rule" (GET /api/dashboard's fields unchanged), and the console's rows add the
 * rule's name, from a signed Stripe webhook through the ingest to dashboard.list.
 */
import { describe, expect, it } from "vitest";
import type { DashboardPage } from "../../shared/schemas/transaction.ts";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { turnOn } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

describe.each(DB_KINDS)("the rule that blocked a charge, on the dashboard (%s)", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  it("names the high-risk rule beside Custom Rule; an allowed charge names none", async () => {
    const merchant = await signedInMerchant(t, `rule-name-${kind}@example.com`);
    const { path, webhookSecret } = await connectStripe(merchant);
    await turnOn(merchant, "rule_high_risk");
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const risky = buildCharge({ riskLevel: "elevated", riskScore: 82, created: now - 60 });
    const fine = buildCharge({ riskScore: 12, created: now - 30 });
    for (const charge of [risky, fine]) {
      const event = buildEvent("charge.succeeded", charge, { created: charge.created });
      expect((await deliver(t, path, event, webhookSecret)).status).toBe(200);
    }

    const page = await merchant.browser.query<DashboardPage>("dashboard.list", {});
    if (!page.ok) throw new Error(`dashboard.list failed: ${page.error.message}`);
    const byId = new Map(page.data.items.map((row) => [row.id, row]));
    expect(byId.get(risky.id)).toMatchObject({
      outcome: "blocked",
      blocked_by: "Custom Rule",
      blocked_by_rules: ["Too high risk level with threshold"],
    });
    expect(byId.get(fine.id)).toMatchObject({ blocked_by: null, blocked_by_rules: [] });

    const rest = await merchant.api.json<Record<string, unknown>[]>("/api/dashboard");
    const specRow = rest.body.find((row) => row.id === risky.id);
    expect(specRow).toMatchObject({ blocked_by: "Custom Rule" });
    expect(specRow).not.toHaveProperty("blocked_by_rules");
  });
});
