/**
 * Decision webhooks over real HTTP, on the embedded database and on PostgreSQL, to a real
 * local receiver: signed deliveries of screening.review, review.approved and label.created,
 * retries with their attempts logged, re-send, and endpoints on private addresses refused
 * unless the operator allows them.
 */
import { describe, expect, it } from "vitest";
import { verifyWebhook } from "../../sdk/client/index.ts";
import type { WebhookDeliveryView } from "../../shared/schemas/webhooks.ts";
import { buildCharge, buildDispute, buildEvent } from "../fixtures/stripe.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";
import { startWebhookReceiver } from "../helpers/webhook-receiver.ts";
import { type WebhookReceiver, withTestAppAndReceiver } from "../with-test-app.ts";

const BOT = "python-requests/2.31";

describe.each(DB_KINDS)("decision webhooks (%s)", (kind) => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  withTestAppAndReceiver(kind, (app, started) => {
    t = app;
    receiver = started;
  });

  it("delivers signed events for a review, its settlement and a label", async () => {
    const merchant = await signedInMerchant(t, `hooks-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    const created = await merchant.browser.mutate<{ id: string; secret: string }>(
      "webhooks.createEndpoint",
      {
        url: receiver.url,
        events: ["screening.review", "review.approved", "label.created"],
      },
    );
    expect(created).toMatchObject({ ok: true });
    const { secret } = (created as { data: { secret: string } }).data;
    expect(secret).toMatch(/^whsec_/);
    const listed = await merchant.browser.query("webhooks.endpoints");
    expect(JSON.stringify(listed)).not.toContain(secret);

    const review = await backend.decide({ type: "request", user_agent: BOT, user_id: "u-hook" });
    expect(review.decision).toBe("review");
    await merchant.browser.mutate("review.settle", {
      id: review.id,
      decision: "approve",
      note: "fine",
    });
    await merchant.browser.mutate("labels.add", {
      subject_kind: "screening",
      subject_id: review.id,
      label: "legitimate",
    });
    // An allowed screening sends nothing.
    await backend.decide({
      type: "login",
      user_agent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0",
      user_id: "u-ok",
    });

    await expect
      .poll(() => receiver.types(), { timeout: 20_000 })
      .toEqual(["label.created", "review.approved", "screening.review"]);
    const first = receiver.ofType("screening.review");
    const second = receiver.ofType("review.approved");
    const third = receiver.ofType("label.created");
    // Each event carries when it happened, which is how a receiver orders them.
    expect(first?.created).toBeLessThanOrEqual(second?.created ?? 0);
    expect(second?.created).toBeLessThanOrEqual(third?.created ?? 0);
    expect(first?.data).toMatchObject({
      screening: { id: review.id, decision: "review", user_id: "u-hook" },
    });
    expect(second?.data).toMatchObject({
      review: { screening_id: review.id, status: "approved", by: merchant.email },
    });
    expect(third?.data).toMatchObject({ label: { subject_id: review.id, label: "legitimate" } });
    for (const delivery of receiver.received) {
      const header = delivery.headers["warden-signature"] as string;
      expect(await verifyWebhook(delivery.body, header, secret)).toMatchObject({ ok: true });
      expect(await verifyWebhook(delivery.body, header, "whsec_wrong")).toMatchObject({
        ok: false,
      });
      expect(delivery.headers["warden-event-id"]).toBe(JSON.parse(delivery.body).id);
    }
    const log = await merchant.browser.query<WebhookDeliveryView[]>("webhooks.deliveries");
    expect(log).toMatchObject({ ok: true });
    const rows = (log as { data: WebhookDeliveryView[] }).data;
    expect(rows.map((r) => r.status)).toEqual(["delivered", "delivered", "delivered"]);
    expect(rows[0]?.attempts).toEqual([expect.objectContaining({ status: 200, error: null })]);

    // Another merchant sees none of it and cannot re-send it.
    const other = await signedInMerchant(t, `hooks-other-${kind}@example.com`);
    expect(await other.browser.query("webhooks.deliveries")).toMatchObject({ ok: true, data: [] });
    expect(await other.browser.mutate("webhooks.resend", { id: rows[0]?.id })).toMatchObject({
      status: 404,
    });
  });

  it("retries a failed delivery with backoff, logs each attempt, and re-sends on request", async () => {
    const merchant = await signedInMerchant(t, `retry-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    await merchant.browser.mutate("webhooks.createEndpoint", {
      url: receiver.url,
      events: ["screening.review"],
    });
    const before = receiver.received.length;
    receiver.answer(500);
    await backend.decide({ type: "request", user_agent: BOT, user_id: "u-retry" });
    const deliveries = async () =>
      (
        (await merchant.browser.query<WebhookDeliveryView[]>("webhooks.deliveries")) as {
          data: WebhookDeliveryView[];
        }
      ).data;
    await expect
      .poll(async () => (await deliveries())[0]?.attempts.length, { timeout: 20_000 })
      .toBe(1);
    const failed = (await deliveries())[0];
    expect(failed).toMatchObject({
      status: "pending",
      attempts: [{ status: 500, error: "HTTP 500" }],
    });
    expect(
      Date.parse(failed?.next_attempt_at ?? "") - Date.parse(failed?.attempts[0]?.at ?? ""),
    ).toBeGreaterThanOrEqual(10_000);

    receiver.answer(200);
    t.clock.advance(11_000);
    await t.app.services.webhooks.flush();
    await expect
      .poll(async () => (await deliveries())[0]?.status, { timeout: 20_000 })
      .toBe("delivered");
    expect((await deliveries())[0]?.attempts.map((a) => a.status)).toEqual([500, 200]);

    const id = (await deliveries())[0]?.id;
    expect(await merchant.browser.mutate("webhooks.resend", { id })).toMatchObject({ ok: true });
    await expect
      .poll(async () => (await deliveries())[0]?.attempts.length, { timeout: 20_000 })
      .toBe(3);
    const sent = receiver.received.slice(before).map((r) => JSON.parse(r.body).id);
    expect(new Set(sent).size).toBe(1);
    expect(sent).toHaveLength(3);
  });

  it("sends one event per item a bulk action settles", async () => {
    const merchant = await signedInMerchant(t, `bulk-hooks-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    const hook = await startWebhookReceiver();
    try {
      await merchant.browser.mutate("webhooks.createEndpoint", {
        url: hook.url,
        events: ["review.denied"],
      });
      const ids = [];
      for (const user of ["b1", "b2"]) {
        ids.push((await backend.decide({ type: "request", user_agent: BOT, user_id: user })).id);
      }
      const bulk = await merchant.browser.mutate("review.bulk", { filters: {}, decision: "deny" });
      expect(bulk).toMatchObject({ ok: true, data: { settled: 2 } });
      await expect.poll(() => hook.events().length, { timeout: 20_000 }).toBe(2);
      expect(
        hook
          .events()
          .map((e) => (e.data.review as { screening_id: string }).screening_id)
          .sort(),
      ).toEqual([...ids].sort());
      expect(new Set(hook.events().map((e) => e.id)).size).toBe(2);
    } finally {
      await hook.close();
    }
  });

  it("tells the endpoint of a rule's refund at Stripe and of Stripe's fraud label", async () => {
    const merchant = await signedInMerchant(t, `stripe-hooks-${kind}@example.com`);
    const stripe = await connectStripe(merchant);
    const rules = await merchant.api.json<Record<string, unknown>>("/api/rules");
    await merchant.api.json("/api/rules", {
      method: "PUT",
      body: { ...rules.body, rule_high_risk: true },
    });
    const hook = await startWebhookReceiver();
    try {
      await merchant.browser.mutate("webhooks.createEndpoint", {
        url: hook.url,
        events: ["charge.refunded_by_rule", "label.created"],
      });
      const risky = buildCharge({ riskScore: 95, riskLevel: "highest", email: "r@example.com" });
      expect(
        (await deliver(t, stripe.path, buildEvent("charge.succeeded", risky), stripe.webhookSecret))
          .status,
      ).toBe(200);
      await deliver(
        t,
        stripe.path,
        buildEvent("charge.dispute.created", buildDispute(risky)),
        stripe.webhookSecret,
      );
      await expect
        .poll(
          () =>
            hook
              .events()
              .map((e) => e.type)
              .sort(),
          { timeout: 15_000 },
        )
        .toEqual(["charge.refunded_by_rule", "label.created"]);
      const refunded = hook.events().find((e) => e.type === "charge.refunded_by_rule");
      expect(refunded?.data).toMatchObject({ charge: { id: risky.id, action: "refund" } });
      const label = hook.events().find((e) => e.type === "label.created");
      expect(label?.data).toMatchObject({
        label: { subject_id: risky.id, label: "fraud", source: "stripe" },
      });
    } finally {
      await hook.close();
    }
  });

  it("stores a settlement's and a label's event in their own transaction: no event, no write", async () => {
    const merchant = await signedInMerchant(t, `outbox-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    await merchant.browser.mutate("webhooks.createEndpoint", {
      url: receiver.url,
      events: ["review.approved", "review.denied", "label.created"],
    });
    const ids: string[] = [];
    for (const user of ["o1", "o2"]) {
      ids.push((await backend.decide({ type: "request", user_agent: BOT, user_id: user })).id);
    }
    const [one, two] = ids;
    const deliveries = (type: string) =>
      t.prisma.webhookDelivery.findMany({
        where: { accountId: merchant.accountId, eventType: type },
      });
    // The database refuses this account's deliveries, as a crash between the two writes would
    // leave them unwritten: the settlement or label must not be stored without its event.
    await t.prisma.$executeRawUnsafe(`
      CREATE FUNCTION "test_refuse_delivery"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."accountId" = '${merchant.accountId}' THEN RAISE EXCEPTION 'refused'; END IF;
        RETURN NEW;
      END $$`);
    await t.prisma.$executeRawUnsafe(`
      CREATE TRIGGER "test_refuse_delivery" BEFORE INSERT ON "WebhookDelivery"
      FOR EACH ROW EXECUTE FUNCTION "test_refuse_delivery"()`);
    try {
      const settle = await merchant.browser.mutate("review.settle", {
        id: one,
        decision: "approve",
      });
      expect(settle).toMatchObject({ ok: false, status: 500 });
      const bulk = await merchant.browser.mutate("review.bulk", { filters: {}, decision: "deny" });
      expect(bulk).toMatchObject({ ok: false, status: 500 });
      const label = await merchant.browser.mutate("labels.add", {
        subject_kind: "screening",
        subject_id: one,
        label: "fraud",
      });
      expect(label).toMatchObject({ ok: false, status: 500 });
      const stored = await t.prisma.screening.findMany({ where: { id: { in: ids } } });
      expect(stored.map((row) => row.reviewStatus)).toEqual([null, null]);
      expect(await t.prisma.label.count({ where: { subjectId: one } })).toBe(0);
    } finally {
      await t.prisma.$executeRawUnsafe(`DROP TRIGGER "test_refuse_delivery" ON "WebhookDelivery"`);
      await t.prisma.$executeRawUnsafe(`DROP FUNCTION "test_refuse_delivery"()`);
    }

    // With the database accepting them, the answer comes after the write and its event are
    // both stored: no waiting for a background write.
    expect(
      await merchant.browser.mutate("review.settle", { id: one, decision: "approve" }),
    ).toMatchObject({ ok: true });
    expect((await deliveries("review.approved")).map((d) => JSON.parse(d.body).data)).toEqual([
      { review: expect.objectContaining({ kind: "screening", screening_id: one }) },
    ]);
    expect(
      await merchant.browser.mutate("review.bulk", { filters: {}, decision: "deny" }),
    ).toMatchObject({ ok: true, data: { settled: 1 } });
    expect((await deliveries("review.denied")).map((d) => JSON.parse(d.body).data)).toEqual([
      { review: expect.objectContaining({ screening_id: two, status: "denied" }) },
    ]);
    const labelled = await merchant.browser.mutate<{ id: string }>("labels.add", {
      subject_kind: "screening",
      subject_id: one,
      label: "fraud",
    });
    expect(labelled).toMatchObject({ ok: true });
    expect((await deliveries("label.created")).map((d) => JSON.parse(d.body).data)).toEqual([
      { label: expect.objectContaining({ subject_id: one, label: "fraud" }) },
    ]);
  });

  it("purges delivered and given-up deliveries past their retention, never pending ones", async () => {
    const merchant = await signedInMerchant(t, `purge-hooks-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    const hook = await startWebhookReceiver();
    const DAY = 86_400_000;
    /** This merchant's deliveries, by the user of the screening each reports. */
    const mine = async () =>
      new Map(
        (await t.prisma.webhookDelivery.findMany({ where: { accountId: merchant.accountId } })).map(
          (d) => [JSON.parse(d.body).data.screening.user_id as string, d],
        ),
      );
    try {
      await merchant.browser.mutate("webhooks.createEndpoint", {
        url: hook.url,
        events: ["screening.review"],
      });
      const screen = async (user: string) => {
        await backend.decide({ type: "request", user_agent: BOT, user_id: user });
        await expect
          .poll(async () => (await mine()).get(user)?.attempts, { timeout: 20_000 })
          .toBe(1);
        return (await mine()).get(user);
      };
      const delivered = await screen("p-delivered");
      expect(delivered?.status).toBe("delivered");
      // As the worker leaves a delivery it gave up on after its last attempt.
      const failed = await screen("p-failed");
      await t.prisma.webhookDelivery.update({
        where: { id: failed?.id },
        data: { status: "failed", deliveredAt: null },
      });
      hook.answer(500);
      const pending = await screen("p-pending");
      expect(pending?.status).toBe("pending");
      const ids = async () => [...(await mine()).values()].map((d) => d.id).sort();

      t.clock.advance(29 * DAY);
      try {
        await t.app.services.housekeeping.purgeExpired();
        expect(await ids()).toEqual([delivered?.id, failed?.id, pending?.id].sort());
        t.clock.advance(2 * DAY);
        const removed = await t.app.services.housekeeping.purgeExpired();
        expect(removed.webhookDeliveries).toBeGreaterThanOrEqual(2);
        expect(await ids()).toEqual([pending?.id]);
      } finally {
        t.clock.advance(-31 * DAY);
      }
    } finally {
      await hook.close();
    }
  });

  it("refuses bad endpoints with 400 naming the field", async () => {
    const merchant = await signedInMerchant(t, `bad-hooks-${kind}@example.com`);
    for (const [input, field] of [
      [{ url: "ftp://example.com/x", events: ["label.created"] }, "url"],
      [{ url: receiver.url, events: [] }, "events"],
      [{ url: receiver.url, events: ["screening.maybe"] }, "events.0"],
    ] as const) {
      const res = await merchant.browser.mutate("webhooks.createEndpoint", input);
      expect(res, JSON.stringify(input)).toMatchObject({ ok: false, status: 400 });
      expect(JSON.stringify(res)).toContain(`"path":"${field}"`);
    }
  });
});

describe("decision webhooks without WEBHOOKS_ALLOW_PRIVATE", () => {
  it("refuses loopback, private and link-local endpoints", async () => {
    const t = await startTestApp("embedded");
    try {
      const merchant = await signedInMerchant(t, "ssrf@example.com");
      for (const url of [
        "http://127.0.0.1:9/x",
        "http://10.0.0.5/x",
        "http://169.254.169.254/latest",
        "http://[::1]/x",
      ]) {
        const res = await merchant.browser.mutate("webhooks.createEndpoint", {
          url,
          events: ["label.created"],
        });
        expect(res, url).toMatchObject({ ok: false, status: 400 });
        expect(JSON.stringify(res)).toContain("private");
      }
    } finally {
      await t.close();
    }
  });
});
