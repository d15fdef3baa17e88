/**
 * "Load demo data" and "Remove demo data" over real HTTP, on both databases: the preview says
 * what loading does; loading reaches no decision webhook (a real receiver subscribed to every
 * event gets only the merchant's own events, and no delivery is stored for a demo charge);
 * removing deletes exactly the demo's rows in one go (the dashboard's rollup then equals a
 * recount, the merchant's own rows are untouched) and puts back the settings it changed,
 * unless the merchant changed them since, which it then says.
 */
import { describe, expect, it } from "vitest";
import type { DemoPreview, DemoRemoved } from "../../shared/schemas/demo.ts";
import { WEBHOOK_EVENTS } from "../../shared/schemas/webhooks.ts";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { type WebhookReceiver, withTestAppAndReceiver } from "../with-test-app.ts";

const STANDARD = ["rule_high_risk", "rule_country_blocked", "rule_email", "rule_efw"];

describe.each(DB_KINDS)("demo data (%s)", (kind) => {
  let t: TestApp;
  let hook: WebhookReceiver;
  withTestAppAndReceiver(kind, (app, started) => {
    t = app;
    hook = started;
  });

  const demoCharges = (accountId: string) =>
    t.prisma.transaction.findMany({ where: { accountId, demo: true } });

  /** The demo loaded, and everything it set off finished: labels stored, simulated refunds done. */
  async function loadDemo(merchant: Merchant) {
    const loaded = await merchant.browser.mutate<{ sent: number }>("stripe.loadDemo");
    expect(loaded, JSON.stringify(loaded)).toMatchObject({ ok: true });
    const { accountId } = merchant;
    await expect
      .poll(
        async () => ({
          charges: (await demoCharges(accountId)).length,
          pending: await t.prisma.stripeAction.count({
            where: { accountId, simulated: true, status: { not: "done" } },
          }),
          labels: await t.prisma.label.count({ where: { accountId, source: "stripe" } }),
        }),
        { timeout: 20_000 },
      )
      .toEqual({ charges: 34, pending: 0, labels: 2 });
    const done = await t.prisma.stripeAction.count({ where: { accountId, simulated: true } });
    expect(done, "the rules acted on demo charges").toBeGreaterThan(0);
  }

  /** The dashboard's rollup, summed per day and currency, against a recount of the charges. */
  async function rollupAndRecount(accountId: string) {
    const rollup = await t.prisma.transactionDay.groupBy({
      by: ["day", "currency"],
      where: { accountId },
      _sum: { allowed: true, blocked: true, refunded: true },
    });
    const rows = await t.prisma.transaction.findMany({ where: { accountId, hasCharge: true } });
    const recount = new Map<string, { allowed: number; blocked: number; refunded: number }>();
    for (const row of rows) {
      const key = `${Math.floor(row.created / 86_400)}:${row.currency}`;
      const entry = recount.get(key) ?? { allowed: 0, blocked: 0, refunded: 0 };
      if (row.blockedBy) entry.blocked += 1;
      else entry.allowed += 1;
      entry.refunded += row.amountRefunded;
      recount.set(key, entry);
    }
    const fromRollup = new Map(
      rollup
        .map((r) => [
          `${r.day}:${r.currency}`,
          {
            allowed: r._sum.allowed ?? 0,
            blocked: r._sum.blocked ?? 0,
            refunded: Number(r._sum.refunded ?? 0),
          },
        ])
        .filter(([, n]) => {
          const v = n as { allowed: number; blocked: number; refunded: number };
          return v.allowed + v.blocked + v.refunded !== 0;
        }) as [string, { allowed: number; blocked: number; refunded: number }][],
    );
    return { rollup: Object.fromEntries(fromRollup), recount: Object.fromEntries(recount) };
  }

  it("says exactly what loading does before anything is loaded", async () => {
    const merchant = await signedInMerchant(t, `demo-preview-${kind}@example.com`);
    const preview = await merchant.browser.query<DemoPreview>("stripe.demoPreview");
    expect(preview).toMatchObject({
      ok: true,
      data: {
        canLoad: true,
        adds: { charges: 34, failedCharges: 2, fraudLabels: 2, screenings: 0, days: 14 },
        blocks: [{ key: "NG", label: "Nigeria" }],
        setsSigningSecret: true,
        loadedCharges: 0,
      },
    });
    if (!preview.ok) return;
    expect(preview.data.turnsOn.map((rule) => rule.key).sort()).toEqual([...STANDARD].sort());
    // Nothing changed by asking.
    expect(await demoCharges(merchant.accountId)).toEqual([]);
    const rules = await merchant.api.json<Record<string, unknown>>("/api/rules");
    for (const key of STANDARD) expect(rules.body[key]).toBe(false);
  });

  it("sends nothing to a receiver subscribed to every event, while the merchant's own events arrive", async () => {
    const merchant = await signedInMerchant(t, `demo-hooks-${kind}@example.com`);
    const { accountId } = merchant;
    const created = await merchant.browser.mutate("webhooks.createEndpoint", {
      url: hook.url,
      events: [...WEBHOOK_EVENTS],
    });
    expect(created, JSON.stringify(created)).toMatchObject({ ok: true });

    await loadDemo(merchant);
    const demoIds = (await demoCharges(accountId)).map((c) => c.chargeId);
    // A person labels a demo charge too: still nothing for the endpoints.
    const backend = await backendOf(t, merchant);
    const label = async (subject_id: string) => {
      const res = await backend.client.json("/api/v1/labels", {
        body: { subject_kind: "charge", subject_id, label: "fraud" },
      });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    };
    await label(demoIds[0] ?? "");
    // And settles a demo charge's review (as one a review rule had opened): still nothing.
    const reviewed = demoIds[1] ?? "";
    await t.prisma.transaction.update({
      where: { accountId_chargeId: { accountId, chargeId: reviewed } },
      data: { reviewStatus: "open" },
    });
    const settle = await backend.client.json(`/api/v1/charges/${reviewed}/decision`, {
      body: { decision: "deny" },
    });
    expect(settle.status, JSON.stringify(settle.body)).toBe(200);

    // The merchant's own charge, labelled: its label.created does arrive (the receiver works).
    const { path, webhookSecret } = await connectStripe(merchant);
    const own = buildCharge({ email: "own.buyer@example.com", riskScore: 10 });
    expect(
      (await deliver(t, path, buildEvent("charge.succeeded", own), webhookSecret)).status,
    ).toBe(200);
    await label(own.id);
    await expect.poll(() => hook.types(), { timeout: 15_000 }).toContain("label.created");

    const deliveries = await t.prisma.webhookDelivery.findMany({ where: { accountId } });
    expect(deliveries.map((d) => d.eventType)).toEqual(["label.created"]);
    expect(deliveries[0]?.body).toContain(own.id);
    for (const event of hook.events()) {
      const body = JSON.stringify(event);
      for (const id of demoIds) expect(body).not.toContain(id);
    }
    expect(hook.events().filter((e) => JSON.stringify(e).includes(own.id))).toHaveLength(1);
  });

  it("removes exactly the demo's rows in one go, the rollup stays right, and the settings it changed come back", async () => {
    const merchant = await signedInMerchant(t, `demo-remove-${kind}@example.com`);
    const { accountId } = merchant;
    const { path, webhookSecret } = await connectStripe(merchant);
    // The merchant's own charge and label, before the demo: they must come through untouched.
    const own = buildCharge({ email: "keep.me@example.com", riskScore: 12, amount: 4200 });
    expect(
      (await deliver(t, path, buildEvent("charge.succeeded", own), webhookSecret)).status,
    ).toBe(200);
    const backend = await backendOf(t, merchant);
    const labelled = await backend.client.json("/api/v1/labels", {
      body: { subject_kind: "charge", subject_id: own.id, label: "legitimate" },
    });
    expect(labelled.status).toBeLessThan(300);
    const ownRow = () =>
      t.prisma.transaction.findUniqueOrThrow({
        where: { accountId_chargeId: { accountId, chargeId: own.id } },
      });
    const before = await ownRow();
    const ownLabels = await t.prisma.label.findMany({ where: { accountId, subjectId: own.id } });

    await loadDemo(merchant);
    const demoIds = (await demoCharges(accountId)).map((c) => c.chargeId);
    const rules = await merchant.api.json<Record<string, unknown>>("/api/rules");
    for (const key of STANDARD) expect(rules.body[key]).toBe(true);
    const preview = await merchant.browser.query<DemoPreview>("stripe.demoPreview");
    expect(preview).toMatchObject({ ok: true, data: { loadedCharges: 34, turnsOn: [] } });
    const summaryWith = await merchant.browser.query<{ charges: number }>("dashboard.summary");
    expect(summaryWith).toMatchObject({ ok: true, data: { charges: 35 } });

    const removed = await merchant.browser.mutate<DemoRemoved>("stripe.removeDemo");
    expect(removed, JSON.stringify(removed)).toMatchObject({
      ok: true,
      data: {
        removed: { charges: 34, labels: 2, stripeEvents: 37 },
        restored: { countries: [{ key: "NG", label: "Nigeria" }] },
        left: { rules: [], countries: [] },
      },
    });
    if (!removed.ok) return;
    expect(removed.data.restored.rules.map((r) => r.key).sort()).toEqual([...STANDARD].sort());
    expect(removed.data.removed.actions).toBeGreaterThan(0);

    // The demo's rows are gone, whatever their kind; the merchant's are as they were.
    expect(await demoCharges(accountId)).toEqual([]);
    const ofDemo = { accountId, chargeId: { in: demoIds } };
    expect(await t.prisma.stripeEvent.count({ where: ofDemo })).toBe(0);
    expect(await t.prisma.stripeAction.count({ where: ofDemo })).toBe(0);
    expect(await t.prisma.label.count({ where: { accountId, subjectId: { in: demoIds } } })).toBe(
      0,
    );
    expect(await ownRow()).toEqual(before);
    expect(await t.prisma.label.findMany({ where: { accountId, subjectId: own.id } })).toEqual(
      ownLabels,
    );
    expect(await t.prisma.stripeEvent.count({ where: { accountId, chargeId: own.id } })).toBe(1);
    // The rollup equals a recount, and the dashboard counts the one charge left.
    const { rollup, recount } = await rollupAndRecount(accountId);
    expect(rollup).toEqual(recount);
    const summary = await merchant.browser.query<{ charges: number }>("dashboard.summary");
    expect(summary).toMatchObject({ ok: true, data: { charges: 1 } });
    // The settings are back as they were.
    const after = await merchant.api.json<Record<string, unknown>>("/api/rules");
    for (const key of STANDARD) expect(after.body[key]).toBe(false);
    const list = await merchant.api.json<{ countries: string[] }>("/api/blocklist");
    expect(list.body.countries).toEqual([]);
    expect(await t.prisma.demoLoad.count({ where: { accountId } })).toBe(0);
  });

  it("leaves the settings the merchant changed since loading, and says which", async () => {
    const merchant = await signedInMerchant(t, `demo-changed-${kind}@example.com`);
    const { accountId } = merchant;
    await loadDemo(merchant);
    // The merchant changes the rules afterwards (another rule on): the demo's stay on.
    const rules = await merchant.api.json<Record<string, unknown>>("/api/rules");
    const put = await merchant.api.json("/api/rules", {
      method: "PUT",
      body: { ...rules.body, rule_ip: true },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);

    const removed = await merchant.browser.mutate<DemoRemoved>("stripe.removeDemo");
    expect(removed).toMatchObject({
      ok: true,
      data: {
        removed: { charges: 34 },
        restored: { rules: [], countries: [{ key: "NG" }] },
        left: { countries: [] },
      },
    });
    if (!removed.ok) return;
    expect(removed.data.left.rules.map((r) => r.key).sort()).toEqual([...STANDARD].sort());
    const after = await merchant.api.json<Record<string, unknown>>("/api/rules");
    for (const key of [...STANDARD, "rule_ip"]) expect(after.body[key]).toBe(true);
    expect(await demoCharges(accountId)).toEqual([]);
  });
});
