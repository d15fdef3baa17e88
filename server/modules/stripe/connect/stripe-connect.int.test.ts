import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCharge } from "../../../../test/fixtures/stripe.ts";
import { DB_KINDS } from "../../../../test/helpers/databases.ts";
import { signedInMerchant } from "../../../../test/helpers/merchants.ts";
import { TEST_SECRET_KEY } from "../../../../test/helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp } from "../../../../test/helpers/test-app.ts";
import { demoEvents } from "../../demo/demo-events.ts";

const settingsBody = (secret: string, webhook = "") => ({
  app_name: "Shop",
  contact_email: "ops@example.com",
  stripe_secret: secret,
  stripe_publishable: "",
  stripe_webhook_secret: webhook,
});

describe.each(DB_KINDS)("connecting Stripe on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { PUBLIC_URL: "https://warden.example.com" } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses a secret key Stripe rejects, naming the field, and keeps the stored one", async () => {
    const merchant = await signedInMerchant(t, `key-${kind}@example.com`);
    t.stripe.acceptKeys(TEST_SECRET_KEY);
    const bad = await merchant.api.json<{
      error: { message: string; issues: { path: string; message: string }[] };
    }>("/api/settings", { method: "PUT", body: settingsBody("sk_test_rejectedByStripe0000") });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0]).toMatchObject({ path: "stripe_secret" });
    expect(bad.body.error.issues[0]?.message).toMatch(/^Stripe rejected this key: Invalid API Key/);
    const stored = await merchant.api.json<{ stripe_secret: string }>("/api/settings");
    expect(stored.body.stripe_secret).toBe("");
  });

  it("registers Warden's webhook endpoint on an https install and keeps the secret Stripe returns", async () => {
    const merchant = await signedInMerchant(t, `endpoint-${kind}@example.com`);
    const saved = await merchant.api.json<{
      stripe_webhook_secret: string;
      stripe_webhook_url: string;
    }>("/api/settings", {
      method: "PUT",
      body: settingsBody(TEST_SECRET_KEY),
    });
    expect(saved.status).toBe(200);
    const created = t.stripe.callsTo("POST", "/v1/webhook_endpoints").at(-1);
    expect(created?.body.url).toBe(saved.body.stripe_webhook_url);
    expect(saved.body.stripe_webhook_url).toMatch(
      /^https:\/\/warden\.example\.com\/webhooks\/stripe\/[0-9a-f-]{36}$/,
    );
    expect(created?.body["enabled_events[0]"]).toBe("charge.succeeded");
    expect(saved.body.stripe_webhook_secret).toMatch(/^whsec_…/);
    const credentials = await t.app.services.settings.stripeCredentials(merchant.accountId);
    expect(credentials.webhookSecret).toMatch(/^whsec_standin/);
  });

  it("saving the key again keeps the one endpoint and its signing secret", async () => {
    const merchant = await signedInMerchant(t, `resave-${kind}@example.com`);
    const put = (key: string) =>
      merchant.api.json<{ stripe_webhook_url: string }>("/api/settings", {
        method: "PUT",
        body: settingsBody(key),
      });
    const first = await put(TEST_SECRET_KEY);
    expect(first.status).toBe(200);
    const url = first.body.stripe_webhook_url;
    const secret = (await t.app.services.settings.stripeCredentials(merchant.accountId))
      .webhookSecret;
    expect(secret).toMatch(/^whsec_standin/);

    const rolled = "sk_test_51WardenRolledKey000000000000000";
    t.stripe.acceptKeys(TEST_SECRET_KEY, rolled);
    for (const key of [TEST_SECRET_KEY, rolled]) {
      expect((await put(key)).status).toBe(200);
    }
    const ours = [...t.stripe.endpoints.values()].filter((e) => e.url === url);
    expect(ours).toHaveLength(1);
    expect(ours[0]?.enabled_events).toContain("charge.succeeded");
    const after = await t.app.services.settings.stripeCredentials(merchant.accountId);
    expect(after.webhookSecret).toBe(secret);
  });

  it("imports past charges with progress, without acting, and a re-run changes nothing", async () => {
    const merchant = await signedInMerchant(t, `import-${kind}@example.com`);
    await merchant.api.json("/api/settings", {
      method: "PUT",
      body: settingsBody(TEST_SECRET_KEY, "whsec_merchantOwnSecret0123456789"),
    });
    await merchant.api.json("/api/rules", {
      method: "PUT",
      body: {
        ...(await merchant.api.json<Record<string, unknown>>("/api/rules")).body,
        rule_high_risk: true,
      },
    });
    const nowSec = Math.floor(t.clock.now().getTime() / 1000);
    for (let i = 0; i < 230; i++) {
      const charge = buildCharge({ created: nowSec - i * 3600, riskScore: i === 5 ? 95 : 20 });
      t.stripe.charges.set(charge.id, charge);
    }
    const old = buildCharge({ created: nowSec - 100 * 86_400 });
    t.stripe.charges.set(old.id, old);

    const started = await merchant.api.mutate<{ status: string }>("stripe.startImport", {
      days: 90,
    });
    expect(started).toMatchObject({ ok: true, data: { status: "running" } });
    await expect
      .poll(async () => await merchant.api.query<{ status: string }>("stripe.importStatus"), {
        timeout: 20_000,
      })
      .toMatchObject({ data: { status: "done", imported: 230, progress: 100 } });
    const count = () => t.prisma.transaction.count({ where: { accountId: merchant.accountId } });
    expect(await count()).toBe(230);
    expect(await t.prisma.stripeAction.count({ where: { accountId: merchant.accountId } })).toBe(0);
    const pages = t.stripe.callsTo("GET", "/v1/charges").filter((c) => c.path === "/v1/charges");
    expect(pages.length).toBeGreaterThanOrEqual(3);

    const before = await t.prisma.transaction.findMany({
      where: { accountId: merchant.accountId },
      orderBy: { chargeId: "asc" },
    });
    await merchant.api.mutate("stripe.startImport", { days: 90 });
    await expect
      .poll(
        async () =>
          await merchant.api.query<{ status: string; imported: number }>("stripe.importStatus"),
        { timeout: 20_000 },
      )
      .toMatchObject({ data: { status: "done" } });
    const after = await t.prisma.transaction.findMany({
      where: { accountId: merchant.accountId },
      orderBy: { chargeId: "asc" },
    });
    expect(after.map(({ updatedAt: _u, ...rest }) => rest)).toEqual(
      before.map(({ updatedAt: _u, ...rest }) => rest),
    );
  });
});

describe("the demo on a local install", () => {
  it("sends the signed sample bundle through the webhook path and shows the rules at work", async () => {
    const t = await startTestApp("embedded");
    try {
      const merchant = await signedInMerchant(t, "demo@example.com");
      const result = await merchant.browser.mutate<{ sent: number; rulesTurnedOn: boolean }>(
        "stripe.loadDemo",
      );
      expect(result).toMatchObject({
        ok: true,
        data: { sent: demoEvents().length, rulesTurnedOn: true },
      });
      const rows = await t.prisma.transaction.findMany({
        where: { accountId: merchant.accountId },
      });
      expect(rows.every((row) => row.demo && !row.livemode)).toBe(true);
      const byOutcome = (o: string) => rows.filter((r) => r.outcome === o).length;
      expect(byOutcome("blocked")).toBeGreaterThanOrEqual(5);
      expect(byOutcome("disputed")).toBe(1);
      expect(byOutcome("refunded")).toBe(1);
      expect(rows.some((r) => r.blockedBy === "stripe")).toBe(true);
      await expect
        .poll(async () => t.prisma.stripeAction.count({ where: { status: "pending" } }), {
          timeout: 10_000,
        })
        .toBe(0);
      // Demo charges are not real: their refunds are simulated, never sent to Stripe...
      expect(t.stripe.callsTo("POST", "/v1/refunds")).toHaveLength(0);
      const actions = await t.prisma.stripeAction.findMany({
        where: { accountId: merchant.accountId },
      });
      expect(actions.length).toBeGreaterThanOrEqual(4);
      expect(actions.every((a) => a.simulated && a.status === "done")).toBe(true);
      // ...and each one changes its charge as Stripe's charge.refunded would: refunded in full.
      const refundedByRule = await t.prisma.transaction.findMany({
        where: { accountId: merchant.accountId, actionKind: "refund" },
      });
      expect(refundedByRule.length).toBe(actions.filter((a) => a.kind === "refund").length);
      for (const row of refundedByRule) {
        expect(row).toMatchObject({ refunded: true, amountRefunded: row.amount });
      }
      // The dashboard's "Amount refunded" agrees with its rows.
      const usdRefunded = (
        await t.prisma.transaction.findMany({
          where: { accountId: merchant.accountId, currency: "usd", amountRefunded: { gt: 0 } },
        })
      ).reduce((sum, row) => sum + row.amountRefunded, 0);
      const summary = await merchant.browser.query<{
        refunded: { currency: string; amount: number }[];
      }>("dashboard.summary");
      expect(summary).toMatchObject({
        ok: true,
        data: { refunded: [{ currency: "usd", amount: usdRefunded / 100 }] },
      });
      expect(usdRefunded).toBeGreaterThan(2900);
      expect(await t.prisma.stripeEvent.count({ where: { accountId: merchant.accountId } })).toBe(
        demoEvents().length,
      );
    } finally {
      await t.close();
    }
  });

  it("is refused on a public install", async () => {
    const t = await startTestApp("embedded", { env: { PUBLIC_URL: "https://warden.example.com" } });
    try {
      const merchant = await signedInMerchant(t, "public@example.com");
      expect(await merchant.browser.mutate("stripe.loadDemo")).toMatchObject({
        ok: false,
        status: 403,
      });
    } finally {
      await t.close();
    }
  });
});
