/**
 * Decision webhooks are fair between merchants, over real HTTP on both databases: one
 * account's receiver that trickles its answer cannot hold back another account's events, and
 * its attempts are cut at the deadline; an endpoint failing for days is disabled (its owner is
 * told by email) until re-enabled; and an account's endpoints are capped, yet all listed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebhookDeliveryView, WebhookEndpointView } from "../../shared/schemas/webhooks.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { startTrickleReceiver } from "../helpers/slow-receivers.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";
import { startWebhookReceiver } from "../helpers/webhook-receiver.ts";

const BOT = { type: "request", user_agent: "python-requests/2.31" } as const;
const DAY = 86_400_000;
const CAP = 3;

async function endpoints(merchant: Merchant) {
  const res = await merchant.browser.query<WebhookEndpointView[]>("webhooks.endpoints");
  expect(res).toMatchObject({ ok: true });
  return (res as { data: WebhookEndpointView[] }).data;
}

async function deliveries(merchant: Merchant) {
  const res = await merchant.browser.query<WebhookDeliveryView[]>("webhooks.deliveries");
  return (res as { data: WebhookDeliveryView[] }).data;
}

async function addEndpoint(merchant: Merchant, url: string) {
  return merchant.browser.mutate<{ id: string }>("webhooks.createEndpoint", {
    url,
    events: ["screening.review"],
  });
}

describe.each(DB_KINDS)("fair decision webhooks (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, {
      env: { WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOK_ENDPOINTS_PER_ACCOUNT: String(CAP) },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("delivers B's event within seconds while A's receiver trickles, and cuts A's attempts at the deadline", async () => {
    const trickle = await startTrickleReceiver(2000);
    const receiver = await startWebhookReceiver();
    try {
      const a = await signedInMerchant(t, `trickled-${kind}@example.com`);
      const b = await signedInMerchant(t, `bystander-${kind}@example.com`);
      const [backendA, backendB] = [await backendOf(t, a), await backendOf(t, b)];
      await turnOn(a, "rule_scraping");
      await turnOn(b, "rule_scraping");
      const made = await addEndpoint(a, trickle.url);
      expect(made, JSON.stringify(made)).toMatchObject({ ok: true });
      expect(await addEndpoint(b, receiver.url)).toMatchObject({ ok: true });

      // A has more due deliveries than a whole claim used to take, all to the trickler.
      for (let i = 0; i < 30; i++) await backendA.decide({ ...BOT, user_id: `a-${i}` });
      await expect.poll(() => trickle.open(), { timeout: 5000 }).toBeGreaterThan(0);

      const sentAt = Date.now();
      await backendB.decide({ ...BOT, user_id: "b-1" });
      // The commit that stored B's event wakes the worker: no waiting for its 5 s poll.
      await expect.poll(() => receiver.types(), { timeout: 3000 }).toEqual(["screening.review"]);
      console.log(`[fairness] B's event arrived in ${Date.now() - sentAt} ms`);

      // A's first attempts end at the 10 s deadline, logged as cut; never more than the
      // endpoint's limit were open at once.
      const cut = async () =>
        (await deliveries(a)).flatMap((d) => d.attempts).filter((x) => x.error !== null);
      await expect.poll(async () => (await cut()).length, { timeout: 15_000 }).toBeGreaterThan(0);
      const [first] = await cut();
      expect(first).toMatchObject({
        status: 200,
        error: "HTTP 200 but the body unfinished after 10 s: cut at the deadline",
      });
      expect(first?.ms).toBeGreaterThanOrEqual(9_500);
      expect(first?.ms).toBeLessThan(12_000);
      expect(trickle.mostOpen()).toBeLessThanOrEqual(4);
      await a.browser.mutate("webhooks.removeEndpoint", {
        id: (made as { data: { id: string } }).data.id,
      });
    } finally {
      await trickle.close();
      await receiver.close();
    }
  });

  it("disables an endpoint failing for 3 days without a success, emails the owner, and re-enables it", async () => {
    const merchant = await signedInMerchant(t, `failing-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    const hook = await startWebhookReceiver();
    const started = t.clock.now().getTime();
    const screen = async (user: string) => {
      await backend.decide({ ...BOT, user_id: user });
      await t.app.services.webhooks.flush();
    };
    const mine = () =>
      t.prisma.webhookDelivery.findMany({ where: { accountId: merchant.accountId } });
    try {
      expect(await addEndpoint(merchant, hook.url)).toMatchObject({ ok: true });
      hook.answer(500);
      await screen("f-1");
      expect((await endpoints(merchant))[0]).toMatchObject({
        failing_since: t.clock.now().toISOString(),
        disabled_at: null,
      });
      // A success in between starts the count again.
      t.clock.advance(DAY);
      hook.answer(200);
      await screen("f-2");
      expect((await endpoints(merchant))[0]?.failing_since).toBeNull();
      hook.answer(500);
      await screen("f-3");
      const failingSince = t.clock.now().toISOString();
      t.clock.advance(2 * DAY);
      await screen("f-4");
      expect((await endpoints(merchant))[0]).toMatchObject({
        failing_since: failingSince,
        disabled_at: null,
      });

      t.clock.advance(DAY + 60_000);
      await screen("f-5");
      const [disabled] = await endpoints(merchant);
      expect(disabled).toMatchObject({
        failing_since: failingSince,
        disabled_at: expect.any(String),
        disabled_reason: "HTTP 500",
      });
      const mail = await t.smtp.waitFor(merchant.email, "disabled");
      expect(mail.text).toContain(hook.url);
      expect(mail.text).toContain("/homepage/settings");
      expect((await mine()).filter((d) => d.status === "pending")).toEqual([]);

      // Disabled: no new deliveries, nothing sent.
      const received = hook.received.length;
      const stored = (await mine()).length;
      await screen("f-6");
      expect((await mine()).length).toBe(stored);
      expect(hook.received.length).toBe(received);

      expect(
        await merchant.browser.mutate("webhooks.enableEndpoint", { id: disabled?.id }),
      ).toMatchObject({ ok: true });
      expect((await endpoints(merchant))[0]).toMatchObject({
        failing_since: null,
        disabled_at: null,
        disabled_reason: null,
      });
      hook.answer(200);
      await screen("f-7");
      expect(hook.events().at(-1)?.data).toMatchObject({ screening: { user_id: "f-7" } });

      // Another account cannot re-enable it.
      const other = await signedInMerchant(t, `not-failing-${kind}@example.com`);
      expect(
        await other.browser.mutate("webhooks.enableEndpoint", { id: disabled?.id }),
      ).toMatchObject({ ok: false, status: 404 });
    } finally {
      t.clock.set(new Date(started));
      await hook.close();
    }
  });

  it(`refuses an endpoint past the cap of ${CAP} with a 400 naming it, racing requests included`, async () => {
    const merchant = await signedInMerchant(t, `capped-${kind}@example.com`);
    for (let i = 0; i < CAP; i++) {
      expect(await addEndpoint(merchant, `http://127.0.0.1:9/hook-${i}`)).toMatchObject({
        ok: true,
      });
    }
    const refused = await addEndpoint(merchant, "http://127.0.0.1:9/one-more");
    expect(refused).toMatchObject({ ok: false, status: 400 });
    expect(JSON.stringify(refused)).toContain(`at most ${CAP} webhook endpoints`);

    const racer = await signedInMerchant(t, `racing-${kind}@example.com`);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => addEndpoint(racer, `http://127.0.0.1:9/race-${i}`)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(CAP);
    expect(results.filter((r) => !r.ok).map((r) => (r as { status: number }).status)).toEqual(
      Array(8 - CAP).fill(400),
    );
    expect(await endpoints(racer)).toHaveLength(CAP);
  });

  it("lists every endpoint of an account past the cap, which may remove them but add none", async () => {
    const merchant = await signedInMerchant(t, `legacy-${kind}@example.com`);
    // As an account that added endpoints before there was a cap (or a take: 100 in the list).
    await t.prisma.webhookEndpoint.createMany({
      data: Array.from({ length: 120 }, (_, i) => ({
        accountId: merchant.accountId,
        url: `http://127.0.0.1:9/legacy-${i}`,
        events: ["label.created"],
        secretCipher: "unused",
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      })),
    });
    const listed = await endpoints(merchant);
    expect(listed).toHaveLength(120);
    expect(listed.at(-1)?.url).toBe("http://127.0.0.1:9/legacy-119");
    expect(
      await merchant.browser.mutate("webhooks.removeEndpoint", { id: listed.at(-1)?.id }),
    ).toMatchObject({ ok: true });
    expect(await endpoints(merchant)).toHaveLength(119);
    expect(await addEndpoint(merchant, "http://127.0.0.1:9/new")).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(await merchant.browser.query("webhooks.endpointLimit")).toMatchObject({
      ok: true,
      data: { max: CAP },
    });
  });
});
