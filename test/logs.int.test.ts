/**
 * The logs of a full run through the real server, in both formats: a merchant signs up and
 * confirms, creates an API key, screens an event with an email, saves Stripe secrets, and a
 * caller tries a wrong key. Every secret and email seeded on the way is then searched for in
 * what was logged; none may appear, and every request line carries its id.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/http-client.ts";
import { signedInMerchant } from "./helpers/merchants.ts";
import { backendOf } from "./helpers/screening.ts";
import { linkIn } from "./helpers/smtp.ts";
import { connectStripe, TEST_SECRET_KEY } from "./helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp } from "./helpers/test-app.ts";

const PASSWORD = "log-test password 7731";
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
    t = await startTestApp("embedded", {
      env: { LOG_LEVEL: "trace", LOG_FORMAT: format },
      logStream: sink,
    });
    const email = `log-owner-${format}@example.com`;
    const merchant = await signedInMerchant(t, email, PASSWORD);
    const confirm = linkIn(await t.smtp.waitFor(email, "Confirm"), "/confirm-email");
    const backend = await backendOf(t, merchant);
    const screened = await backend.screen({
      type: "signup",
      email: SCREENED_EMAIL,
      ip: "203.0.113.9",
      user_id: "user-1",
    });
    expect(screened.status).toBe(200);
    requestId = screened.headers.get("x-request-id") ?? "none";
    await connectStripe(merchant, WEBHOOK_SECRET);
    const wrong = await new TestClient(t.baseUrl, { authorization: `Bearer ${WRONG_KEY}` }).json(
      "/api/v1/screen",
      { body: { type: "login", email: SCREENED_EMAIL } },
    );
    expect(wrong.status).toBe(401);
    await new TestClient(t.baseUrl).mutate("auth.login", { email, password: "not the password" });
    await t.close();

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
  ])("holds no %s", (name) => {
    const value = seeded[name];
    expect(value, `${name} was seeded`).toBeTruthy();
    expect(log).not.toContain(value);
  });

  it("shows a masked address where an email was logged", () => {
    expect(log).toContain("l***@example.com");
  });
});
