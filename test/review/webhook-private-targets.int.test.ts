/**
 * An endpoint saved while WEBHOOKS_ALLOW_PRIVATE was on outlives that setting: after a restart
 * without it, nothing reaches a private IP literal (Node skips the DNS lookup for a literal, so
 * the connection's guarded lookup never sees it; the sender checks it at every send), and the
 * delivery's log says why. Endpoints that embed a private IPv4 address in IPv6 are refused
 * when saved.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/database.ts";
import type { WebhookDeliveryView } from "../../shared/schemas/webhooks.ts";
import { DB_KINDS, openTestDatabase } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp } from "../helpers/test-app.ts";
import { startWebhookReceiver } from "../helpers/webhook-receiver.ts";

const BOT = { type: "request", user_agent: "python-requests/2.31" } as const;
// The same key across the restart: the endpoint's signing secret is sealed with it.
const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString("base64");

describe.each(DB_KINDS)("webhooks to private addresses (%s)", (kind) => {
  let database: Database;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await database?.close();
  });

  it("sends nothing to a private IP literal saved while allowed, once restarted without WEBHOOKS_ALLOW_PRIVATE, and logs the refusal", async () => {
    expect(new URL(receiver.url).hostname).toBe("127.0.0.1");
    const allowed = await startTestApp(kind, {
      database,
      env: { ENCRYPTION_KEY, WEBHOOKS_ALLOW_PRIVATE: "true" },
    });
    let token: string;
    let key: string;
    try {
      const merchant = await signedInMerchant(allowed, `private-${kind}@example.com`);
      const backend = await backendOf(allowed, merchant);
      await turnOn(merchant, "rule_scraping");
      const created = await merchant.browser.mutate("webhooks.createEndpoint", {
        url: receiver.url,
        events: ["screening.review"],
      });
      expect(created).toMatchObject({ ok: true });
      // Allowed, it arrives: the receiver is reachable, so silence later is the refusal.
      await backend.decide({ ...BOT, user_id: "while-allowed" });
      await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
      ({ token } = merchant);
      ({ key } = backend);
    } finally {
      await allowed.close();
    }

    const restarted = await startTestApp(kind, { database, env: { ENCRYPTION_KEY } });
    try {
      const owner = new TestClient(restarted.baseUrl, { authorization: `Bearer ${token}` });
      const screen = await new TestClient(restarted.baseUrl, {
        authorization: `Bearer ${key}`,
      }).json<{ decision: string }>("/api/v1/screen", {
        body: { ...BOT, user_id: "after-restart" },
      });
      expect(screen.body.decision).toBe("review");
      const refused = async () => {
        const log = await owner.query<WebhookDeliveryView[]>("webhooks.deliveries");
        if (!log.ok) throw new Error(JSON.stringify(log));
        return log.data.find((d) => d.attempts.length > 0 && d.status !== "delivered");
      };
      await expect.poll(refused, { timeout: 20_000 }).toBeDefined();
      const delivery = await refused();
      expect(delivery?.attempts).toEqual([
        expect.objectContaining({
          status: null,
          error: expect.stringMatching(/127\.0\.0\.1.*private.*WEBHOOKS_ALLOW_PRIVATE/),
        }),
      ]);
      // A second try (a re-send) is refused too: the check is at every send.
      await owner.mutate("webhooks.resend", { id: delivery?.id });
      await expect
        .poll(async () => (await refused())?.attempts.length, { timeout: 20_000 })
        .toBe(2);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await restarted.close();
    }
  });

  it("refuses, when saved, endpoints that embed a private IPv4 address in IPv6", async () => {
    const t = await startTestApp(kind, { database, env: { ENCRYPTION_KEY } });
    try {
      const merchant = await signedInMerchant(t, `embedded-${kind}@example.com`);
      for (const url of [
        "http://[::127.0.0.1]/x",
        "http://[::ffff:127.0.0.1]/x",
        "http://[::ffff:0:7f00:1]/x",
        "http://[64:ff9b::7f00:1]/x",
        "http://[64:ff9b:1::7f00:1]/x",
        "http://[2002:7f00:1::1]/x",
        "http://192.0.2.1/x",
      ]) {
        const res = await merchant.browser.mutate("webhooks.createEndpoint", {
          url,
          events: ["label.created"],
        });
        expect(res, url).toMatchObject({
          ok: false,
          status: 400,
          error: {
            data: {
              issues: [
                {
                  path: "url",
                  message: expect.stringContaining("set WEBHOOKS_ALLOW_PRIVATE=true"),
                },
              ],
            },
          },
        });
      }
    } finally {
      await t.close();
    }
  });
});
