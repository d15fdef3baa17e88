/**
 * Alerts over real HTTP on both databases (issue 45): the defaults of a new account; a spike
 * of one rule's hits fired once (by email, as a signed webhook event, to a Slack-compatible
 * receiver) however often and however concurrently it is measured; resolved when the series is
 * back; quiet for its cool-down; a threshold; the review queue's oldest item; validation and
 * the Slack URL kept secret; one merchant never sees or touches another's.
 */
import { describe, expect, it } from "vitest";
import { verifyWebhook } from "../../sdk/client/index.ts";
import type { AlertEventView, AlertView } from "../../shared/schemas/alerts.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { type TestApp, testClock } from "../helpers/test-app.ts";
import { startWebhookReceiver } from "../helpers/webhook-receiver.ts";
import { type WebhookReceiver, withTestAppAndReceiver } from "../with-test-app.ts";

const BOT = "python-requests/2.31";
const MINUTE = 60_000;
// A Monday 10:02 UTC: the window's buckets do not straddle an hour.
const START = Date.parse("2026-11-30T10:02:00Z");

type Ok<T> = { ok: true; data: T };
const data = <T>(answer: unknown) => (answer as Ok<T>).data;

describe.each(DB_KINDS)("alerts (%s)", (kind) => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  const clock = testClock(START);
  withTestAppAndReceiver(
    kind,
    (app, started) => {
      t = app;
      receiver = started;
    },
    { clock, env: { WEBHOOKS_ALLOW_PRIVATE: "true", ALERTS_EVERY_SECONDS: "3600" } },
  );

  const alertsOf = async (m: Merchant) => data<AlertView[]>(await m.browser.query("alerts.list"));
  const eventsOf = async (m: Merchant) =>
    data<{ events: AlertEventView[] }>(await m.browser.query("alerts.events")).events;
  const evaluate = (m: Merchant) => t.app.services.alerts.evaluate(m.accountId);

  it("gives a new account its default alerts, on", async () => {
    const merchant = await signedInMerchant(t, `alerts-defaults-${kind}@example.com`);
    const alerts = await alertsOf(merchant);
    expect(alerts.map((a) => [a.metric, a.mode, a.enabled])).toEqual([
      ["block_rate", "spike", true],
      ["series_spike", "spike", true],
      ["review_oldest", "threshold", true],
      ["webhook_failing", "threshold", true],
    ]);
    // The REST list is the same.
    const rest = await merchant.api.json<AlertView[]>("/api/alerts");
    expect(rest.status).toBe(200);
    expect(rest.body.map((a) => a.id)).toEqual(alerts.map((a) => a.id));
  });

  it("fires a spike once on every channel, resolves it, and keeps quiet for its cool-down", async () => {
    const slack = await startWebhookReceiver();
    try {
      clock.set(new Date(START));
      const merchant = await signedInMerchant(t, `alerts-spike-${kind}@example.com`);
      const backend = await backendOf(t, merchant);
      await turnOn(merchant, "rule_scraping");
      const endpoint = data<{ secret: string }>(
        await merchant.browser.mutate("webhooks.createEndpoint", {
          url: receiver.url,
          events: ["alert.fired", "alert.resolved"],
        }),
      );
      const created = await merchant.api.json<AlertView>("/api/alerts", {
        body: {
          name: "Scraping spike",
          metric: "rule_hits",
          rule: "rule_scraping",
          mode: "spike",
          window_minutes: 15,
          cooldown_minutes: 600,
          slack_url: slack.url,
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const alert = created.body;
      // The Slack URL is a secret: only a hint comes back, here and in the list.
      expect(alert.slack_url_hint).toMatch(/^127\.0\.0\.1:\d+\/…rden$/);
      expect(JSON.stringify(await alertsOf(merchant))).not.toContain(slack.url);

      // Quiet: measured, nothing fires.
      await backend.decide({ type: "request", user_agent: BOT, user_id: "u-0" });
      await evaluate(merchant);
      expect(await eventsOf(merchant)).toEqual([]);

      // 24 scraping hits within minutes, against a floor of half an hour's one.
      for (let i = 1; i <= 24; i++) {
        await backend.decide({ type: "request", user_agent: BOT, user_id: `u-${i}` });
      }
      clock.advance(2 * MINUTE);
      // Measured by two instances at once and again: one event.
      await Promise.all([evaluate(merchant), evaluate(merchant)]);
      await evaluate(merchant);
      const fired = (await eventsOf(merchant)).filter((e) => e.alert_name === "Scraping spike");
      expect(fired.map((e) => e.kind)).toEqual(["fired"]);
      const event = fired[0] as AlertEventView;
      expect(event.value).toBe(25);
      expect(event.message).toBe(
        '25 hits of "Scraping and throttling" in the last 15 min; usual for this hour not known yet',
      );
      // The chart: 24 five-minute buckets up to now, this one holding the hits.
      expect(event.points).toHaveLength(24);
      expect(event.points.at(-1)?.value).toBe(25);
      expect((await alertsOf(merchant)).find((a) => a.id === alert.id)?.firing).toBe(true);

      // Email to the owner, the signed webhook event, and Slack's text.
      const mail = await t.smtp.waitFor(merchant.email, "Warden alert: Scraping spike");
      expect(mail.text).toContain('25 hits of "Scraping and throttling" in the last 15 min');
      expect(mail.text).toContain(`${t.baseUrl}/homepage/alerts`);
      await expect.poll(() => receiver.types()).toEqual(["alert.fired"]);
      const hook = receiver.received[0];
      expect(
        // Signed at the app's clock (the test's), which is what a receiver's tolerance reads.
        await verifyWebhook(
          hook?.body ?? "",
          String(hook?.headers["warden-signature"]),
          endpoint.secret,
          {
            now: clock.now().getTime() / 1000,
          },
        ),
      ).toMatchObject({ ok: true });
      expect(receiver.ofType("alert.fired")?.data).toMatchObject({
        alert: { id: alert.id, name: "Scraping spike", metric: "rule_hits" },
        value: 25,
      });
      expect(slack.received).toHaveLength(1);
      expect(JSON.parse(slack.received[0]?.body ?? "{}").text).toContain(
        '*Warden alert: Scraping spike*: 25 hits of "Scraping and throttling"',
      );
      await expect
        .poll(async () => (await eventsOf(merchant))[0]?.delivered)
        .toEqual({ email: "queued to 1", webhook: "queued", slack: "sent (HTTP 200)" });

      // Past its own 15 minutes the hits are still a spike over an hour and four: no new event.
      clock.advance(20 * MINUTE);
      await evaluate(merchant);
      expect((await eventsOf(merchant)).map((e) => e.kind)).toEqual(["fired"]);
      // Past four hours, the longest window it looks at: resolved, once, on every channel.
      clock.advance(4 * 60 * MINUTE);
      await evaluate(merchant);
      await evaluate(merchant);
      const kinds = (await eventsOf(merchant)).map((e) => e.kind);
      expect(kinds).toEqual(["resolved", "fired"]);
      await expect.poll(() => receiver.types()).toEqual(["alert.fired", "alert.resolved"]);
      expect(slack.received).toHaveLength(2);
      expect(JSON.parse(slack.received[1]?.body ?? "{}").text).toContain(
        "Resolved: Scraping spike",
      );

      // A second spike inside the cool-down (10 h after it fired) does not fire.
      for (let i = 0; i < 24; i++) {
        await backend.decide({ type: "request", user_agent: BOT, user_id: `v-${i}` });
      }
      await evaluate(merchant);
      expect((await eventsOf(merchant)).map((e) => e.kind)).toEqual(["resolved", "fired"]);
      // After it, a spike fires again.
      clock.advance(6 * 60 * MINUTE);
      for (let i = 0; i < 24; i++) {
        await backend.decide({ type: "request", user_agent: BOT, user_id: `w-${i}` });
      }
      await evaluate(merchant);
      expect((await eventsOf(merchant)).map((e) => e.kind)).toEqual(["fired", "resolved", "fired"]);
      // Two quiet days: an account without traffic still has its firing alert resolved (and
      // its default alert on the review queue, whose scraping reviews nobody settled, fires).
      clock.advance(2 * 24 * 60 * MINUTE);
      await evaluate(merchant);
      const events = await eventsOf(merchant);
      expect(events.find((e) => e.kind === "fired")?.alert_name).toBe(
        "Review queue waiting over a day",
      );
      expect(events.filter((e) => e.alert_id === alert.id).map((e) => e.kind)).toEqual([
        "resolved",
        "fired",
        "resolved",
        "fired",
      ]);
    } finally {
      await slack.close();
    }
  });

  it("fires on a build-up no quarter of an hour shows, over the longer windows it looks at", async () => {
    clock.set(new Date(START + 3 * 7 * 24 * 60 * MINUTE));
    const merchant = await signedInMerchant(t, `alerts-slow-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    const alert = data<AlertView>(
      await merchant.browser.mutate("alerts.create", {
        name: "Slow scraping",
        metric: "rule_hits",
        rule: "rule_scraping",
        mode: "spike",
        email: false,
        webhook: false,
      }),
    );
    const fired = async () =>
      (await eventsOf(merchant)).filter((e) => e.alert_id === alert.id && e.kind === "fired");
    // Three hits a quarter of an hour: never ten in fifteen minutes.
    let quarters = 0;
    while ((await fired()).length === 0 && quarters < 8) {
      for (let i = 0; i < 3; i++) {
        await backend.decide({ type: "request", user_agent: BOT, user_id: `s-${quarters}-${i}` });
      }
      await evaluate(merchant);
      clock.advance(15 * MINUTE);
      quarters++;
    }
    expect(quarters).toBe(4);
    expect((await fired())[0]?.message).toBe(
      '12 hits of "Scraping and throttling" in the last 60 min; usual for this hour not known yet',
    );
  });

  it("fires a block-rate threshold and an old review, and a test reaches the channels", async () => {
    clock.set(new Date(START + 7 * 24 * 60 * MINUTE));
    const merchant = await signedInMerchant(t, `alerts-threshold-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    const reviews = data<AlertView>(
      await merchant.browser.mutate("alerts.create", {
        name: "Reviews over 40%",
        metric: "review_rate",
        mode: "threshold",
        threshold: 40,
        window_minutes: 30,
        email: false,
        webhook: false,
      }),
    );
    for (let i = 0; i < 12; i++) {
      await backend.decide({ type: "request", user_agent: BOT, user_id: `b-${i}` });
    }
    for (let i = 0; i < 12; i++) {
      await backend.decide({
        type: "login",
        user_agent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0",
        user_id: `ok-${i}`,
      });
    }
    await evaluate(merchant);
    const fired = (await eventsOf(merchant)).find((e) => e.alert_id === reviews.id);
    expect(fired?.message).toBe(
      "50% of screenings sent to review in the last 30 min (12 of 24; alert at 40%)",
    );
    expect(fired?.delivered).toEqual({ email: "off", webhook: "off", slack: "off" });

    // Default "Review queue waiting over a day": the oldest open review is 25 hours old.
    clock.advance(25 * 60 * MINUTE);
    await evaluate(merchant);
    const oldest = (await eventsOf(merchant)).find(
      (e) => e.alert_name === "Review queue waiting over a day",
    );
    expect(oldest?.message).toBe("the oldest open review has waited 25 hours (alert at 24)");
    await t.smtp.waitFor(merchant.email, "Warden alert: Review queue waiting over a day");

    const tested = await merchant.api.json<AlertEventView>(`/api/alerts/${reviews.id}/test`, {
      method: "POST",
      body: {},
    });
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    expect(tested.body.kind).toBe("test");
    expect(tested.body.message).toMatch(/^a test: /);
  });

  it("refuses bad settings with the field and the reason, and keeps a stored Slack URL", async () => {
    const merchant = await signedInMerchant(t, `alerts-invalid-${kind}@example.com`);
    const bad = async (body: Record<string, unknown>) => {
      const res = await merchant.api.json<{
        error: { issues?: { path: string; message: string }[] };
      }>("/api/alerts", { body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return res.body.error.issues?.map((i) => `${i.path}: ${i.message}`);
    };
    expect(await bad({ name: "x", metric: "rule_hits", threshold: 5 })).toEqual([
      "rule: must name the rule to watch",
    ]);
    expect(await bad({ name: "x", metric: "review_oldest", mode: "spike" })).toEqual([
      "mode: must be threshold for review_oldest",
    ]);
    expect(await bad({ name: "x", metric: "block_rate", threshold: 150 })).toEqual([
      "threshold: must be at most 100 (%)",
    ]);
    expect(await bad({ name: "x", metric: "block_rate", threshold: 5, window_minutes: 7 })).toEqual(
      ["window_minutes: must be a multiple of 5"],
    );
    expect(
      await bad({
        name: "x",
        metric: "block_rate",
        threshold: 5,
        slack_url: "ftp://example.com/x",
      }),
    ).toEqual(["slack_url: must be an http or https URL"]);
    expect(await bad({ name: "\u0000", metric: "block_rate", threshold: 5 })).toHaveLength(1);

    const alert = data<AlertView>(
      await merchant.browser.mutate("alerts.create", {
        name: "Blocks",
        metric: "block_rate",
        threshold: 20,
        slack_url: "https://127.0.0.1/hooks/T000/B000/abcd",
      }),
    );
    const updated = data<AlertView>(
      await merchant.browser.mutate("alerts.update", {
        id: alert.id,
        alert: { name: "Blocks over 25%", metric: "block_rate", threshold: 25 },
      }),
    );
    expect(updated).toMatchObject({ name: "Blocks over 25%", slack_url_hint: "127.0.0.1/…abcd" });
    const cleared = data<AlertView>(
      await merchant.browser.mutate("alerts.update", {
        id: alert.id,
        alert: { name: "Blocks over 25%", metric: "block_rate", threshold: 25, slack_url: "" },
      }),
    );
    expect(cleared.slack_url_hint).toBeNull();
    // The audit log has the change, with the Slack URL masked.
    const audit = await t.prisma.auditEvent.findMany({
      where: { accountId: merchant.accountId, action: { startsWith: "alerts." } },
    });
    expect(audit.map((a) => a.action).sort()).toEqual([
      "alerts.create",
      "alerts.update",
      "alerts.update",
    ]);
    expect(JSON.stringify(audit)).not.toContain("/hooks/T000/B000/abcd");
  });

  it("keeps each merchant's alerts to itself", async () => {
    const owner = await signedInMerchant(t, `alerts-owner-${kind}@example.com`);
    const other = await signedInMerchant(t, `alerts-other-${kind}@example.com`);
    const [first] = await alertsOf(owner);
    const id = first?.id as string;
    expect(await other.browser.mutate("alerts.remove", { id })).toMatchObject({ status: 404 });
    expect(
      await other.browser.mutate("alerts.update", {
        id,
        alert: { name: "mine", metric: "block_rate", threshold: 1 },
      }),
    ).toMatchObject({ status: 404 });
    expect(await other.browser.mutate("alerts.test", { id })).toMatchObject({ status: 404 });
    expect((await alertsOf(owner)).map((a) => a.id)).toContain(id);
    const removed = await owner.api.json(`/api/alerts/${id}`, { method: "DELETE" });
    expect(removed.status).toBe(204);
    expect((await alertsOf(owner)).map((a) => a.id)).not.toContain(id);
  });
});
