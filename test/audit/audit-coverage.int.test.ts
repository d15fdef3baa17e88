/**
 * Every kind of change leaves its audit event, on both databases, through real HTTP as a
 * signed-in merchant (behind a proxy that names the client's address) and as a backend with a
 * secret key: configuration (rules, templates, rule settings, block and allow lists, settings
 * with Stripe secrets, allowed origins, API keys, webhook endpoints, score thresholds), the
 * decision loop (a review settled, a label, a bulk action, a label over the API), and signing
 * in, right and wrong. Each event names the action, the actor, the IP and, where a whole
 * object is replaced, before and after; no secret is ever stored, in any column. Then the log
 * reads them back newest first, page by page, filtered, and as CSV; another account sees none.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEvent, AuditPage } from "../../shared/schemas/audit.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { MERCHANT_PASSWORD, type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp, testClock } from "../helpers/test-app.ts";
import { csvRecords } from "./csv-parse.ts";

/** The client's address as the proxy in front of Warden reports it (TRUST_PROXY=1). */
const IP = "203.0.113.77";
const BOT = "python-requests/2.31";
const STRIPE_SECRET = "sk_test_51AuditSecretKeyThatMustNeverBeStored0000abcd";
const WEBHOOK_SECRET = "whsec_AuditSigningSecretThatMustNeverBeStored9876";

describe.each(DB_KINDS)("audit coverage on %s", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  let other: Merchant;
  let backend: Backend;
  /** REST with the merchant's bearer token, through the proxy. */
  let api: TestClient;
  /** The console: the merchant's cookie, same origin, through the proxy. */
  let console: TestClient;
  const reviews: string[] = [];
  let checkpoint = "";
  /** Every event this test made, oldest first, as the log should give them back. */
  const made: AuditEvent[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind, {
      env: { TRUST_PROXY: "1" },
      clock: testClock(Date.parse("2026-11-20T12:00:00Z")),
    });
    merchant = await signedInMerchant(t, `coverage-${kind}@example.com`);
    other = await signedInMerchant(t, `coverage-other-${kind}@example.com`);
    api = new TestClient(t.baseUrl, {
      authorization: `Bearer ${merchant.token}`,
      "x-forwarded-for": IP,
    });
    console = new TestClient(t.baseUrl, { origin: t.baseUrl, "x-forwarded-for": IP });
    for (const [name, value] of merchant.browser.cookies) console.cookies.set(name, value);
    backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    for (const user of ["u-settle", "u-bulk-1", "u-bulk-2"]) {
      const answer = await backend.decide({ type: "request", user_agent: BOT, user_id: user });
      expect(answer.decision).toBe("review");
      reviews.push(answer.id);
      t.clock.advance(1000);
    }
    t.clock.advance(60_000);
    checkpoint = t.clock.now().toISOString();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The newest event, checked against what was expected; the clock moves on after it. */
  async function newest(expected: Partial<AuditEvent>): Promise<AuditEvent> {
    const page = await api.json<AuditPage>("/api/audit?limit=1");
    expect(page.status).toBe(200);
    const event = page.body.items[0] as AuditEvent;
    expect(event, expected.action).toMatchObject({
      actor_kind: "member",
      actor: merchant.email,
      ip: IP,
      ...expected,
    });
    expect(
      made.map((e) => e.id),
      `${expected.action} is a new event`,
    ).not.toContain(event.id);
    made.push(event);
    t.clock.advance(1000);
    return event;
  }
  const ok = async <T>(res: Promise<{ status: number; body: T }>, status = 200): Promise<T> => {
    const { status: got, body } = await res;
    expect(got, JSON.stringify(body)).toBe(status);
    return body;
  };
  const trpc = async <T>(path: string, input: unknown): Promise<T> => {
    const res = await console.mutate<T>(path, input);
    expect(res, `${path}: ${JSON.stringify(res)}`).toMatchObject({ ok: true });
    return (res as { data: T }).data;
  };
  /** Every column of the stored row, as text: none may hold the secret, nor most of it. */
  async function storedText(id: string): Promise<string> {
    const row = await t.prisma.auditEvent.findUniqueOrThrow({ where: { id } });
    return JSON.stringify(row);
  }
  const expectNoSecret = (text: string, secret: string) => {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(0, -4));
    expect(text).not.toContain(secret.slice(8, 24));
  };

  it("writes an event for every kind of change, with who, from where, before and after", async () => {
    // Rules: the whole object, before and after.
    const rules = await ok(api.json<Record<string, unknown>>("/api/rules"));
    await ok(
      api.json("/api/rules", { method: "PUT", body: { ...rules, risk_level_threshold: 88 } }),
    );
    const rulesEvent = await newest({ action: "rules.put", target: null });
    expect(rulesEvent.before).toMatchObject({
      risk_level_threshold: rules.risk_level_threshold,
      rule_scraping: true,
    });
    expect(rulesEvent.after).toMatchObject({ risk_level_threshold: 88, rule_scraping: true });

    const templates = await ok(api.json<Record<string, boolean>>("/api/templates"));
    await ok(
      api.json("/api/templates", {
        method: "PUT",
        body: { ...templates, template_account_farm_shield: true },
      }),
    );
    await newest({
      action: "templates.put",
      before: expect.objectContaining({ template_account_farm_shield: false }),
      after: expect.objectContaining({ template_account_farm_shield: true }),
    });

    await ok(
      api.json("/api/rule-settings", {
        method: "PUT",
        body: { rule_signup_velocity: { per_ip_per_hour: 42 } },
      }),
    );
    const ruleSettings = await newest({ action: "ruleSettings.put" });
    expect(JSON.stringify(ruleSettings.after)).toContain('"per_ip_per_hour":42');
    expect(JSON.stringify(ruleSettings.before)).not.toContain('"per_ip_per_hour":42');

    await ok(
      api.json("/api/blocklist", {
        method: "PUT",
        body: { countries: ["KP"], email_providers: ["blocked.example"] },
      }),
    );
    await newest({
      action: "blocklist.put",
      before: expect.objectContaining({ countries: [] }),
      after: expect.objectContaining({ countries: ["KP"], email_providers: ["blocked.example"] }),
    });

    const entry = await ok(
      api.json<{ id: string }>("/api/allowlist", {
        body: { kind: "email", value: "vip@example.com", note: "key account" },
      }),
    );
    await newest({
      action: "allowList.add",
      after: expect.objectContaining({ kind: "email", value: "vip@example.com" }),
    });
    await ok(api.json(`/api/allowlist/${entry.id}`, { method: "DELETE" }), 204);
    await newest({ action: "allowList.remove", target: entry.id });

    // Settings with Stripe's secrets: the event keeps masked hints, never the secrets.
    await ok(
      api.json("/api/settings", {
        method: "PUT",
        body: {
          app_name: "Audited shop",
          contact_email: merchant.email,
          stripe_secret: STRIPE_SECRET,
          stripe_publishable: "pk_test_51AuditPublishable",
          stripe_webhook_secret: WEBHOOK_SECRET,
        },
      }),
    );
    const settings = await newest({
      action: "settings.put",
      after: expect.objectContaining({ app_name: "Audited shop" }),
    });
    for (const secret of [STRIPE_SECRET, WEBHOOK_SECRET]) {
      expectNoSecret(await storedText(settings.id), secret);
      expectNoSecret(JSON.stringify(settings), secret);
    }
    expect(JSON.stringify(settings.after)).toContain(STRIPE_SECRET.slice(-4));

    await ok(
      api.json("/api/allowed-origins", {
        method: "PUT",
        body: { origins: ["https://shop.example.com"] },
      }),
    );
    await newest({
      action: "allowedOrigins.set",
      after: expect.objectContaining({ origins: ["https://shop.example.com"] }),
    });

    // An API key: its event names it, never holds it; the key is shown once, at creation.
    const key = await ok(
      api.json<{ id: string; key: string }>("/api/api-keys", { body: { name: "audited key" } }),
    );
    expect(key.key).toMatch(/^wdn_sk_/);
    const created = await newest({
      action: "apiKeys.create",
      after: expect.objectContaining({ name: "audited key" }),
    });
    expectNoSecret(await storedText(created.id), key.key);
    expect(JSON.stringify(await ok(api.json("/api/api-keys")))).not.toContain(key.key);
    await ok(api.json(`/api/api-keys/${key.id}`, { method: "DELETE" }), 204);
    await newest({ action: "apiKeys.revoke", target: key.id });

    // A webhook endpoint: created (its signing secret shown once, never stored in the log),
    // enabled, removed.
    const endpoint = await trpc<{ id: string; secret: string }>("webhooks.createEndpoint", {
      url: "https://8.8.8.8/audit-hook",
      events: ["label.created"],
    });
    const hook = await newest({
      action: "webhooks.createEndpoint",
      after: expect.objectContaining({ url: "https://8.8.8.8/audit-hook" }),
    });
    expectNoSecret(await storedText(hook.id), endpoint.secret);
    await trpc("webhooks.enableEndpoint", { id: endpoint.id });
    await newest({ action: "webhooks.enableEndpoint", target: endpoint.id });
    await trpc("webhooks.removeEndpoint", { id: endpoint.id });
    // Named by its URL, read before it was deleted.
    await newest({
      action: "webhooks.removeEndpoint",
      target: endpoint.id,
      target_label: "https://8.8.8.8/audit-hook",
    });

    await ok(
      api.json("/api/scoring/thresholds", {
        method: "PUT",
        body: { thresholds: { signup: { review: 61, block: 86 } } },
      }),
    );
    const thresholds = await newest({ action: "scoreThresholds.put" });
    expect(JSON.stringify(thresholds.after)).toContain('"review":61');
    expect(JSON.stringify(thresholds.before)).not.toContain('"review":61');

    // The decision loop.
    const [settled, ...bulk] = reviews as [string, ...string[]];
    await trpc("review.settle", { id: settled, decision: "approve", note: "known customer" });
    await newest({
      action: "review.settle",
      target: settled,
      after: expect.objectContaining({ decision: "approve", note: "known customer" }),
    });
    await trpc("labels.add", {
      subject_kind: "screening",
      subject_id: settled,
      label: "legitimate",
    });
    await newest({
      action: "labels.add",
      target: settled,
      after: expect.objectContaining({ label: "legitimate" }),
    });
    const swept = await trpc<{ settled: number }>("review.bulk", {
      filters: { rule: "rule_scraping" },
      decision: "deny",
      note: "bot sweep",
    });
    expect(swept.settled).toBe(bulk.length);
    await newest({
      action: "review.bulk",
      after: expect.objectContaining({ decision: "deny", filters: { rule: "rule_scraping" } }),
    });

    // A label from the merchant's backend: the actor is the key, never the key itself.
    const fromBackend = new TestClient(t.baseUrl, {
      authorization: `Bearer ${backend.key}`,
      "x-forwarded-for": IP,
    });
    await ok(
      fromBackend.json("/api/v1/labels", {
        body: { subject_kind: "screening", subject_id: bulk[0], label: "fraud" },
      }),
    );
    const byKey = await newest({
      action: "labelsApi.create",
      actor_kind: "api_key",
      // By the name the API keys page shows, beside the start of its id.
      actor: `API key backend (${backend.keyId.slice(0, 8)})`,
      target: bulk[0],
    });
    expectNoSecret(await storedText(byKey.id), backend.key);

    // Signing in, and failing to.
    const signIn = new TestClient(t.baseUrl, { "x-forwarded-for": IP });
    await ok(
      signIn.json("/api/auth/login", {
        body: { email: merchant.email, password: MERCHANT_PASSWORD },
      }),
    );
    await newest({ action: "auth.sign_in", target: null });
    await ok(
      signIn.json("/api/auth/login", { body: { email: merchant.email, password: "wrong guess!" } }),
      401,
    );
    const failed = await newest({ action: "auth.sign_in_failed" });
    expect(await storedText(failed.id)).not.toContain("wrong guess!");
  });

  it("reads them back newest first, page by page, filtered, and as CSV", async () => {
    const expected = [...made].reverse();
    const since = `since=${encodeURIComponent(checkpoint)}`;
    const pages: AuditEvent[] = [];
    let cursor: string | null = null;
    let calls = 0;
    do {
      const query: string = `?${since}&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page = await ok(api.json<AuditPage>(`/api/audit${query}`));
      expect(page.items.length).toBeLessThanOrEqual(4);
      pages.push(...page.items);
      cursor = page.next_cursor;
      calls++;
    } while (cursor);
    expect(calls).toBe(Math.ceil(expected.length / 4));
    // Exactly the events made, each once, newest first: nothing else was written.
    expect(pages).toEqual(expected);

    const actions = async (query: string) =>
      (await ok(api.json<AuditPage>(`/api/audit?${since}&${query}`))).items.map((e) => e.action);
    expect(await actions("action=rules.")).toEqual(["rules.put"]);
    expect(await actions("action=rules.,ruleSettings.")).toEqual(["ruleSettings.put", "rules.put"]);
    expect(await actions("action=allowList.remove")).toEqual(["allowList.remove"]);
    expect(await actions("action=auth.")).toEqual(["auth.sign_in_failed", "auth.sign_in"]);
    expect(await actions("actor=api%20key")).toEqual(["labelsApi.create"]);
    expect(await actions(`actor=${encodeURIComponent(merchant.email.toUpperCase())}`)).toHaveLength(
      expected.length - 1,
    );

    const csv = await api.request(`/api/audit.csv?${since}`);
    expect(csv.status).toBe(200);
    const text = await csv.text();
    const rows = csvRecords(text);
    expect(
      rows.map((row) => [row.at, row.action, row.actor, row.ip, row.target, row.target_label]),
    ).toEqual(
      expected.map((e) => [e.at, e.action, e.actor, e.ip, e.target ?? "", e.target_label ?? ""]),
    );
    expect(rows.map((row) => (row.after ? JSON.parse(row.after) : null))).toEqual(
      expected.map((e) => e.after ?? null),
    );
    for (const secret of [STRIPE_SECRET, WEBHOOK_SECRET, backend.key]) expectNoSecret(text, secret);
  });

  it("shows another account none of them", async () => {
    const ids = new Set(made.map((e) => e.id));
    const theirs = await ok(other.api.json<AuditPage>("/api/audit?limit=200"));
    expect(theirs.items.length).toBeGreaterThan(0);
    expect(theirs.items.filter((e) => ids.has(e.id))).toEqual([]);
    expect(theirs.items.every((e) => e.actor === other.email)).toBe(true);
    const csv = await (await other.api.request("/api/audit.csv")).text();
    expect(csv).not.toContain(merchant.email);
    expect(csv).not.toContain("rules.put");
    const viaTrpc = await other.browser.query<AuditPage>("audit.list", { action: "rules." });
    expect(viaTrpc).toMatchObject({ ok: true, data: { items: [], next_cursor: null } });
  });
});
