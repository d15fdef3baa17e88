/**
 * The logs of a full run through the real server, in both formats: a merchant signs up and
 * confirms, creates an API key and a decision-webhook endpoint, screens an event with an
 * email (answered review, so the endpoint gets a signed delivery), saves Stripe secrets,
 * resets their password through the emailed link, and a caller tries a wrong key. Every
 * secret and email seeded on the way is then searched for in what was logged; none may
 * appear. Every line a request caused carries its id, whichever logger wrote it (the email
 * sent after a signup too); the only lines without one are named below.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { TestClient } from "./helpers/http-client.ts";
import { signedInMerchant } from "./helpers/merchants.ts";
import { backendOf } from "./helpers/screening.ts";
import { linkIn } from "./helpers/smtp.ts";
import { connectStripe, TEST_SECRET_KEY } from "./helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp } from "./helpers/test-app.ts";
import { startWebhookReceiver } from "./helpers/webhook-receiver.ts";

const PASSWORD = "log-test password 7731";
const NEW_PASSWORD = "log-test reset password 9902";
const BOT = "python-requests/2.31";
/**
 * Lines no request caused: the server starting to listen, and the housekeeping that runs when
 * it is ready (a timer then, hourly). Anything else without a request id fails the test.
 */
const NOT_FROM_A_REQUEST = [
  /Server listening at http/,
  /purged expired sessions, tokens and counters/,
];
const SCREENED_EMAIL = "screened.person@example.org";
const WEBHOOK_SECRET = "whsec_logtestSigningSecret5566";
const WRONG_KEY = "wdn_sk_wrongkeywrongkeywrongkeywrongkey";

describe.each(["json", "pretty"] as const)("logs as %s", (format) => {
  let t: TestApp;
  let log = "";
  const seeded: Record<string, string> = {};
  let requestId = "";

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        log += chunk.toString();
        done();
      },
    });
    const receiver = await startWebhookReceiver();
    t = await startTestApp("embedded", {
      env: { LOG_LEVEL: "trace", LOG_FORMAT: format, WEBHOOKS_ALLOW_PRIVATE: "true" },
      logStream: sink,
    });
    const email = `log-owner-${format}@example.com`;
    const merchant = await signedInMerchant(t, email, PASSWORD);
    const confirm = linkIn(await t.smtp.waitFor(email, "Confirm"), "/confirm-email");
    const backend = await backendOf(t, merchant);
    const endpoint = await merchant.browser.mutate<{ secret: string }>("webhooks.createEndpoint", {
      url: receiver.url,
      events: ["screening.review"],
    });
    expect(endpoint).toMatchObject({ ok: true });
    const decisionWebhookSecret = endpoint.ok ? endpoint.data.secret : "unset";
    const rules = (await merchant.api.json<Record<string, unknown>>("/api/rules")).body;
    await merchant.api.json("/api/rules", {
      method: "PUT",
      body: { ...rules, rule_scraping: true },
    });
    const screened = await backend.screen({
      type: "signup",
      email: SCREENED_EMAIL,
      ip: "203.0.113.9",
      user_id: "user-1",
      user_agent: BOT,
    });
    expect(screened.status).toBe(200);
    expect(screened.body.decision).toBe("review");
    requestId = screened.headers.get("x-request-id") ?? "none";
    await vi.waitFor(() => expect(receiver.types()).toEqual(["screening.review"]), {
      timeout: 5000,
    });
    await connectStripe(merchant, WEBHOOK_SECRET);

    const browser = new TestClient(t.baseUrl);
    expect(await browser.mutate("auth.requestPasswordReset", { email })).toMatchObject({
      ok: true,
    });
    const reset = linkIn(await t.smtp.waitFor(email, "Reset"), "/reset-password");
    const resetDone = await browser.mutate("auth.resetPassword", {
      tokenHash: reset.searchParams.get("tokenHash"),
      email: reset.searchParams.get("email"),
      password: NEW_PASSWORD,
    });
    expect(resetDone).toMatchObject({ ok: true });
    const wrong = await new TestClient(t.baseUrl, { authorization: `Bearer ${WRONG_KEY}` }).json(
      "/api/v1/screen",
      { body: { type: "login", email: SCREENED_EMAIL } },
    );
    expect(wrong.status).toBe(401);
    await new TestClient(t.baseUrl).mutate("auth.login", { email, password: "not the password" });
    await t.close();
    await receiver.close();

    Object.assign(seeded, {
      password: PASSWORD,
      "merchant email": email,
      "merchant email's local part": `log-owner-${format}@`,
      "screened email": SCREENED_EMAIL,
      "screened email's local part": "screened.person",
      "API key": backend.key,
      "API key's secret part": backend.key.slice(12),
      "wrong API key": WRONG_KEY,
      "session token": merchant.token,
      "confirmation token": confirm.searchParams.get("tokenHash") ?? "unset",
      "Stripe secret key": TEST_SECRET_KEY,
      "webhook signing secret": WEBHOOK_SECRET,
      "new password": NEW_PASSWORD,
      "password reset token": reset.searchParams.get("tokenHash") ?? "unset",
      "decision webhook secret": decisionWebhookSecret,
      "decision webhook secret's random part": decisionWebhookSecret.slice(6),
    });
  });
  afterAll(async () => {
    await t?.close().catch(() => {});
  });

  it("logs every request in one line carrying its request id", () => {
    const lines = log.split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThan(10);
    if (format === "json") {
      const requests = lines.map((line) => JSON.parse(line)).filter((line) => line.req);
      expect(requests.length).toBeGreaterThan(8);
      for (const line of requests) expect(line.reqId).toMatch(/^[0-9a-f]{16}$/);
      expect(requests.map((line) => `${line.req.method} ${line.req.url}`)).toContain(
        "POST /api/v1/screen",
      );
    } else {
      const requests = lines.filter((line) => / (GET|POST|PUT) \//.test(line));
      expect(requests.length).toBeGreaterThan(8);
      for (const line of requests)
        expect(line).toMatch(/\[[0-9a-f]{16}\] (GET|POST|PUT) \/\S* \d{3}/);
      expect(log).not.toMatch(/^\{/m);
    }
  });

  it("stamps a request id on every line a request caused, whichever logger wrote it", () => {
    const lines = log.split("\n").filter(Boolean);
    const withoutId =
      format === "json"
        ? lines
            .map((line) => JSON.parse(line) as { reqId?: string; msg?: string })
            .filter((line) => !/^[0-9a-f]{16}$/.test(line.reqId ?? ""))
            .map((line) => line.msg ?? "")
        : lines.filter((line) => !/\[[0-9a-f]{16}\] /.test(line));
    const unexplained = withoutId.filter(
      (message) => !NOT_FROM_A_REQUEST.some((pattern) => pattern.test(message)),
    );
    expect(unexplained).toEqual([]);
    // Written by services through the app's logger, not the request's: they carry the id too.
    const sent = lines.filter((line) => line.includes("email sent"));
    expect(sent).toHaveLength(2);
    for (const line of sent) expect(line).toMatch(/[0-9a-f]{16}/);
  });

  it("answers with the request id its log lines carry", () => {
    expect(requestId).toMatch(/^[0-9a-f]{16}$/);
    expect(log).toContain(requestId);
  });

  it.each([
    "password",
    "merchant email",
    "merchant email's local part",
    "screened email",
    "screened email's local part",
    "API key",
    "API key's secret part",
    "wrong API key",
    "session token",
    "confirmation token",
    "Stripe secret key",
    "webhook signing secret",
    "new password",
    "password reset token",
    "decision webhook secret",
    "decision webhook secret's random part",
  ])("holds no %s", (name) => {
    const value = seeded[name];
    expect(value, `${name} was seeded`).toBeTruthy();
    expect(log).not.toContain(value);
  });

  it("shows a masked address where an email was logged", () => {
    expect(log).toContain("l***@example.com");
  });
});
