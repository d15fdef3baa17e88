/** GET /metrics: only with METRICS_TOKEN, in Prometheus's format, counting what happened. */
import { describe, expect, it } from "vitest";
import { buildCharge, buildEvent } from "./fixtures/stripe.ts";
import { DB_KINDS } from "./helpers/databases.ts";
import { TestClient } from "./helpers/http-client.ts";
import { signedInMerchant } from "./helpers/merchants.ts";
import { backendOf, turnOn } from "./helpers/screening.ts";
import { connectStripe, deliver } from "./helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp } from "./helpers/test-app.ts";
import { withTestApp } from "./with-test-app.ts";

const TOKEN = "metrics-token-0123456789abcdef";

describe.each(DB_KINDS)("metrics (%s)", (kind) => {
  let t: TestApp;
  withTestApp(kind, { env: { METRICS_TOKEN: TOKEN } }, (app) => {
    t = app;
  });

  it("needs the token", async () => {
    expect((await new TestClient(t.baseUrl, {}).request("/metrics")).status).toBe(401);
    const wrong = new TestClient(t.baseUrl, { authorization: "Bearer not-the-token-at-all-x" });
    expect((await wrong.request("/metrics")).status).toBe(401);
  });

  it("counts requests by route, webhooks by result, ingest batches, screenings and actions by state", async () => {
    const merchant = await signedInMerchant(t, `metrics-${kind}@example.com`);
    await turnOn(merchant, "rule_signup_velocity", "rule_high_risk");
    const backend = await backendOf(t, merchant);
    await backend.decide({ type: "signup", ip: "192.0.2.1" });
    const { path, webhookSecret } = await connectStripe(merchant);
    const risky = buildCharge({ riskScore: 95 });
    expect(
      (await deliver(t, path, buildEvent("charge.succeeded", risky), webhookSecret)).status,
    ).toBe(200);
    expect(
      (await deliver(t, path, buildEvent("charge.succeeded", risky), "whsec_wrong")).status,
    ).toBe(400);

    const res = await new TestClient(t.baseUrl, { authorization: `Bearer ${TOKEN}` }).request(
      "/metrics",
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/warden_screenings_total\{decision="allow"\} 1/);
    expect(text).toMatch(/warden_screening_duration_seconds_count 1/);
    expect(text).toMatch(/warden_webhook_events_total\{result="applied"\} 1/);
    expect(text).toMatch(/warden_webhook_events_total\{result="rejected"\} 1/);
    expect(text).toMatch(/warden_stripe_actions\{state="(pending|done)"\} 1/);
    // One charge event applied: one read and one write, each a batch of one.
    expect(text).toMatch(/warden_ingest_batch_size_count\{statement="read"\} 1/);
    expect(text).toMatch(/warden_ingest_batch_size_sum\{statement="write"\} 1/);
    expect(text).toMatch(
      /warden_http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/screen"[^}]*\} 1/,
    );
    // Routes are patterns: no endpoint id in a label.
    expect(text).toContain('route="/webhooks/stripe/:endpointId"');
    expect(text).toMatch(/nodejs_eventloop_lag_seconds/);
    if (kind === "postgres")
      expect(text).toMatch(/warden_db_pool_connections\{state="total"\} \d+/);
  });
});

describe("metrics without METRICS_TOKEN", () => {
  it("has no route: the path is just the app's (no metrics in it)", async () => {
    const t = await startTestApp("embedded");
    try {
      const res = await new TestClient(t.baseUrl, {}).request("/metrics");
      expect(res.headers.get("content-type")).not.toMatch(/text\/plain/);
      expect(await res.text()).not.toContain("warden_");
    } finally {
      await t.close();
    }
  });
});
