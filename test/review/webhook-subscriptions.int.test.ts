/**
 * Which events an account's endpoints want is cached in memory (a screening answered review
 * costs no query when nobody listens), and the cache follows endpoint changes: at once on the
 * instance that made the change, and through the change feed on another instance.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS } from "../helpers/databases.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";
import { startWebhookReceiver } from "../helpers/webhook-receiver.ts";
import { type WebhookReceiver, withTestAppAndReceiver } from "../with-test-app.ts";

const BOT = { type: "request", user_agent: "python-requests/2.31" } as const;
const env = {
  WEBHOOKS_ALLOW_PRIVATE: "true",
  ENCRYPTION_KEY: Buffer.alloc(32, 5).toString("base64"),
};

describe.each(DB_KINDS)("webhook subscriptions (%s)", (kind) => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  withTestAppAndReceiver(
    kind,
    (app, started) => {
      t = app;
      receiver = started;
    },
    { env },
  );

  it("sends to an endpoint made after the account was cached as having none, and to one made again after a removal", async () => {
    const merchant = await signedInMerchant(t, `subs-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    // Cached: no endpoint wants screening.review.
    expect((await backend.decide({ ...BOT, user_id: "before" })).decision).toBe("review");
    const created = await merchant.browser.mutate<{ id: string }>("webhooks.createEndpoint", {
      url: receiver.url,
      events: ["screening.review"],
    });
    const { id } = (created as { data: { id: string } }).data;
    await backend.decide({ ...BOT, user_id: "after" });
    await expect.poll(() => receiver.types(), { timeout: 10_000 }).toEqual(["screening.review"]);
    expect(receiver.ofType("screening.review")?.data).toMatchObject({
      screening: { user_id: "after" },
    });

    // Removed and made again: the account is cached as wanting nothing in between.
    await merchant.browser.mutate("webhooks.removeEndpoint", { id });
    await backend.decide({ ...BOT, user_id: "none" });
    await merchant.browser.mutate("webhooks.createEndpoint", {
      url: receiver.url,
      events: ["screening.review"],
    });
    await backend.decide({ ...BOT, user_id: "again" });
    await expect
      .poll(() => receiver.events().map((e) => (e.data.screening as { user_id: string }).user_id))
      .toEqual(["after", "again"]);
  });
});

describe.runIf(DB_KINDS.includes("postgres"))("webhook subscriptions across two instances", () => {
  let a: TestApp;
  let b: TestApp;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  beforeAll(async () => {
    a = await startTestApp("postgres", { env });
    b = await startTestApp("postgres", { env, database: a.database });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await receiver?.close();
  });

  it("takes an endpoint made on one instance on the other within 2 s", async () => {
    const merchant = await signedInMerchant(a, "subs-two@example.com");
    const backend = await backendOf(a, merchant);
    await turnOn(merchant, "rule_scraping");
    const onB = (userId: string) =>
      fetch(`${b.baseUrl}/api/v1/screen`, {
        method: "POST",
        headers: { authorization: `Bearer ${backend.key}`, "content-type": "application/json" },
        body: JSON.stringify({ ...BOT, user_id: userId }),
      }).then((res) => res.json() as Promise<{ decision: string }>);
    // B caches the account as having no endpoint.
    expect((await onB("cached")).decision).toBe("review");
    await merchant.browser.mutate("webhooks.createEndpoint", {
      url: receiver.url,
      events: ["screening.review"],
    });
    const madeAt = Date.now();
    let sent = 0;
    await expect
      .poll(
        async () => {
          await onB(`try-${sent++}`);
          return receiver.types().length;
        },
        { timeout: 2000, interval: 50 },
      )
      .toBeGreaterThan(0);
    console.log(`the endpoint reached the other instance within ${Date.now() - madeAt} ms`);
  });
});
