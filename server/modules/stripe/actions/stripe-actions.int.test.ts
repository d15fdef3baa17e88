import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../../shared/schemas/rules.ts";
import type { DashboardPage } from "../../../../shared/schemas/transaction.ts";
import { buildCharge, buildEvent } from "../../../../test/fixtures/stripe.ts";
import { DB_KINDS } from "../../../../test/helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../../../../test/helpers/merchants.ts";
import { connectStripe, deliver } from "../../../../test/helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp } from "../../../../test/helpers/test-app.ts";
import { createStripeActionsRepository } from "./stripe-actions.repository.ts";
import {
  CANCEL_LOST_RACE,
  KEY_REFUSED,
  LEASE_MS,
  NOT_CONNECTED,
} from "./stripe-actions.service.ts";

const HIGH_RISK_ON = { ...DEFAULT_RULES, rule_high_risk: true, risk_level_threshold: 70 };
const NEW_KEY = "sk_test_51WardenRolledKey000000000000000";

describe.each(DB_KINDS)("Stripe actions on %s", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  let hook: { path: string; webhookSecret: string };

  beforeAll(async () => {
    t = await startTestApp(kind);
    merchant = await signedInMerchant(t, `actions-${kind}@example.com`);
    hook = await connectStripe(merchant);
    const rules = await merchant.api.json("/api/rules", {
      method: "PUT",
      body: HIGH_RISK_ON,
    });
    expect(rules.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (event: Stripe.Event) => deliver(t, hook.path, event, hook.webhookSecret);
  const action = (chargeId: string, kind?: "refund" | "cancel") =>
    t.prisma.stripeAction.findFirstOrThrow({ where: { chargeId, ...(kind ? { kind } : {}) } });
  const dashboardAction = async (chargeId: string) => {
    const page = await merchant.browser.query<DashboardPage>("dashboard.list", { limit: 100 });
    if (!page.ok) throw new Error(`dashboard.list failed: ${page.error.message}`);
    return page.data.items.find((row) => row.id === chargeId)?.action;
  };
  const saveKey = (stripe_secret: string) =>
    merchant.api.json("/api/settings", {
      method: "PUT",
      body: {
        app_name: "Test shop",
        contact_email: merchant.email,
        stripe_secret,
        stripe_publishable: "pk_test_51WardenTestKey",
        stripe_webhook_secret: "",
      },
    });

  it.each([401, 403])(
    "a %s from Stripe needs attention, and the refund runs once a new key is saved",
    async (status) => {
      t.stripe.failNext(1, status, "Expired API Key provided: sk_test_***4242");
      const charge = buildCharge({ riskScore: 95, riskLevel: "highest" });
      await send(buildEvent("charge.succeeded", charge));
      await expect
        .poll(async () => (await action(charge.id)).status, { timeout: 10_000 })
        .toBe("needs_attention");
      expect((await action(charge.id)).lastError).toContain(KEY_REFUSED);
      expect(await dashboardAction(charge.id)).toMatchObject({
        kind: "refund",
        status: "needs_attention",
        error: expect.stringContaining("Fix the secret key in Settings"),
      });

      expect((await saveKey(NEW_KEY)).status).toBe(200);
      await expect
        .poll(async () => (await action(charge.id)).status, { timeout: 10_000 })
        .toBe("done");
      expect(await dashboardAction(charge.id)).toMatchObject({ status: "done", error: null });
      const calls = t.stripe
        .callsTo("POST", "/v1/refunds")
        .filter((c) => c.body.charge === charge.id);
      expect(calls.map((c) => c.idempotencyKey)).toEqual([
        `warden:${charge.id}:refund`,
        `warden:${charge.id}:refund`,
      ]);
      expect(calls[1]?.authorization).toBe(`Bearer ${NEW_KEY}`);
    },
  );

  it("without a key the action waits in needs attention, and runs when a key is saved", async () => {
    const other = await signedInMerchant(t, `actions-nokey-${kind}@example.com`);
    const secret = `whsec_nokey_${kind}`;
    const saved = await other.api.json<{ stripe_webhook_url: string }>("/api/settings", {
      method: "PUT",
      body: {
        app_name: "No key",
        contact_email: other.email,
        stripe_secret: "",
        stripe_publishable: "",
        stripe_webhook_secret: secret,
      },
    });
    expect(saved.status).toBe(200);
    await other.api.json("/api/rules", { method: "PUT", body: HIGH_RISK_ON });
    const charge = buildCharge({ riskScore: 96, riskLevel: "highest" });
    const path = new URL(saved.body.stripe_webhook_url).pathname;
    expect((await deliver(t, path, buildEvent("charge.succeeded", charge), secret)).status).toBe(
      200,
    );
    await expect
      .poll(async () => (await action(charge.id)).status, { timeout: 10_000 })
      .toBe("needs_attention");
    expect((await action(charge.id)).lastError).toBe(NOT_CONNECTED);

    const put = await other.api.json("/api/settings", {
      method: "PUT",
      body: {
        app_name: "No key",
        contact_email: other.email,
        stripe_secret: NEW_KEY,
        stripe_publishable: "",
        stripe_webhook_secret: "",
      },
    });
    expect(put.status).toBe(200);
    await expect
      .poll(async () => (await action(charge.id)).status, { timeout: 10_000 })
      .toBe("done");
  });

  it("a cancel that loses the race with a capture becomes a refund with its own key", async () => {
    const charge = buildCharge({ captured: false, riskScore: 92, riskLevel: "highest" });
    const intent = charge.payment_intent as string;
    t.stripe.capturedIntents.add(intent);
    await send(buildEvent("charge.succeeded", charge));
    await expect
      .poll(async () => (await action(charge.id, "refund").catch(() => null))?.status, {
        timeout: 10_000,
      })
      .toBe("done");
    expect(await action(charge.id, "cancel")).toMatchObject({
      status: "done",
      lastError: CANCEL_LOST_RACE,
    });
    const refunds = t.stripe
      .callsTo("POST", "/v1/refunds")
      .filter((c) => c.body.charge === charge.id);
    expect(refunds.map((c) => c.idempotencyKey)).toEqual([`warden:${charge.id}:refund`]);
    expect(await dashboardAction(charge.id)).toMatchObject({ kind: "refund", status: "done" });
    const row = await t.prisma.transaction.findFirstOrThrow({ where: { chargeId: charge.id } });
    expect(row).toMatchObject({ refunded: true, blockedBy: "custom_rule" });
  });

  it("a worker that lost its lease does not overwrite the result of the one that took over", async () => {
    const repo = createStripeActionsRepository(t.prisma);
    const created = await t.prisma.stripeAction.create({
      data: {
        accountId: merchant.accountId,
        chargeId: "ch_lease_test",
        kind: "refund",
        targetId: "ch_lease_test",
        idempotencyKey: `warden:ch_lease_test:refund:${kind}`,
        reason: "test",
        nextAttemptAt: new Date(0),
      },
    });
    const start = new Date(Date.now() + 3600_000);
    const [slow] = await repo.claimDueActions(start, LEASE_MS, 1);
    expect(slow?.id).toBe(created.id);
    expect(slow?.lockedUntil?.getTime()).toBe(start.getTime() + LEASE_MS);
    const later = new Date(start.getTime() + LEASE_MS + 1);
    const [fast] = await repo.claimDueActions(later, LEASE_MS, 1);
    expect(fast?.id).toBe(created.id);
    expect(await repo.finishAction(fast as never, { status: "done", stripeObjectId: "re_1" })).toBe(
      true,
    );
    const lost = await repo.finishAction(slow as never, {
      status: "pending",
      error: "timed out",
      nextAttemptAt: later,
    });
    expect(lost).toBe(false);
    expect(
      await t.prisma.stripeAction.findUniqueOrThrow({ where: { id: created.id } }),
    ).toMatchObject({ status: "done", stripeObjectId: "re_1", lastError: null });
  });

  it("finishing mirrors the action on its charge: refunded, refunded in full when simulated, or the error", async () => {
    const repo = createStripeActionsRepository(t.prisma);
    const charges = {
      real: buildCharge({ amount: 1200 }),
      simulated: buildCharge({ amount: 3400 }),
      failed: buildCharge({ amount: 5600 }),
    };
    for (const charge of Object.values(charges)) {
      await send(buildEvent("charge.succeeded", charge));
    }
    for (const [name, charge] of Object.entries(charges)) {
      await t.prisma.stripeAction.create({
        data: {
          accountId: merchant.accountId,
          chargeId: charge.id,
          kind: "refund",
          targetId: charge.id,
          idempotencyKey: `warden:${charge.id}:refund:finish`,
          reason: "test",
          simulated: name === "simulated",
          // Not due for the app's own worker; this test claims them as of two hours on.
          nextAttemptAt: new Date(Date.now() + 3600_000),
        },
      });
    }
    const claimed = await repo.claimDueActions(new Date(Date.now() + 7200_000), LEASE_MS, 10);
    const mine = (id: string) => claimed.find((a) => a.chargeId === id) as never;
    expect(
      await repo.finishAction(mine(charges.real.id), { status: "done", stripeObjectId: "re_real" }),
    ).toBe(true);
    expect(
      await repo.finishAction(mine(charges.simulated.id), { status: "done", stripeObjectId: null }),
    ).toBe(true);
    const retryAt = new Date(Date.now() + 60_000);
    expect(
      await repo.finishAction(mine(charges.failed.id), {
        status: "pending",
        error: "Stripe is down",
        nextAttemptAt: retryAt,
      }),
    ).toBe(true);

    const row = (id: string) =>
      t.prisma.transaction.findFirstOrThrow({
        where: { accountId: merchant.accountId, chargeId: id },
        select: { refunded: true, amountRefunded: true, actionStatus: true, actionError: true },
      });
    expect(await row(charges.real.id)).toEqual({
      refunded: true,
      amountRefunded: 0,
      actionStatus: "done",
      actionError: null,
    });
    expect(await row(charges.simulated.id)).toEqual({
      refunded: true,
      amountRefunded: 3400,
      actionStatus: "done",
      actionError: null,
    });
    expect(await row(charges.failed.id)).toEqual({
      refunded: false,
      amountRefunded: 0,
      actionStatus: "pending",
      actionError: "Stripe is down",
    });
    const failed = await action(charges.failed.id);
    expect(failed).toMatchObject({
      status: "pending",
      lastError: "Stripe is down",
      lockedUntil: null,
    });
    expect(failed.nextAttemptAt.getTime()).toBe(retryAt.getTime());
    expect(await action(charges.real.id)).toMatchObject({
      status: "done",
      stripeObjectId: "re_real",
    });
  });

  it("the lease of a claimed batch outlasts every call in it timing out", () => {
    // Ten calls of at most 20 s each, run one after another.
    expect(LEASE_MS).toBeGreaterThan(10 * 20_000);
  });
});
