/**
 * Allow lists over real HTTP, on the embedded database and on PostgreSQL: an entry beats the
 * rules and says so (in the answer, the history and the screening's detail), the block lists
 * win over every entry kind, a device id the browser asserted never matches a device entry,
 * ranges wider than a /16 (IPv6 /32) are refused, entries expire, approving a review can put
 * the user on the list, and Test on history applies the list as it stood at each event.
 */
import { describe, expect, it } from "vitest";
import type { AllowEntryView } from "../../shared/schemas/allow-list.ts";
import type { ScreeningDetail } from "../../shared/schemas/review.ts";
import type { ScreeningRow } from "../../shared/schemas/screening.ts";
import { shopCollectorKey } from "../collector/shop-key.ts";
import { backtest, pageSettings } from "../helpers/backtest.ts";
import { humanSignals, tokenFor } from "../helpers/collector.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { type TestApp, testClock } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

type OpenApi = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content: Record<string, { schema: unknown }> }> }>
  >;
};

const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15";
const HOUR = 3_600_000;

describe.each(DB_KINDS)("allow list (%s)", (kind) => {
  let t: TestApp;
  const clock = testClock(Date.parse("2026-11-20T10:00:00Z"));
  withTestApp(kind, { clock }, (app) => {
    t = app;
  });

  async function setUp(name: string) {
    const merchant = await signedInMerchant(t, `${name}-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_email");
    const add = (entry: Record<string, unknown>) =>
      merchant.browser.mutate<AllowEntryView>("allowList.add", entry);
    const signup = (extra: Record<string, string> = {}) =>
      backend.decide({
        type: "signup",
        user_agent: BROWSER,
        email: "x@mailinator.com",
        user_id: "u1",
        ...extra,
      });
    return { merchant, backend, add, signup };
  }

  it("allows a listed user whatever the rules say, and says who listed it and when", async () => {
    const { merchant, add, signup } = await setUp("allow");
    expect((await signup()).decision).toBe("block");
    expect(await add({ kind: "user_id", value: "u1", note: "our CEO" })).toMatchObject({
      ok: true,
      data: { kind: "user_id", value: "u1", added_by: merchant.email, expires_at: null },
    });
    const answer = await signup();
    expect(answer).toMatchObject({
      decision: "allow",
      reasons: [],
      monitored: [{ rule: "rule_email", action: "block" }],
      allowed: {
        kind: "user_id",
        value: "u1",
        message: `allowed: user id on allow list, added by ${merchant.email} on 2026-11-20`,
      },
    });
    expect((await signup({ user_id: "u2" })).decision).toBe("block");

    const list = await merchant.browser.query<AllowEntryView[]>("allowList.list");
    expect(list).toMatchObject({ ok: true, data: [{ value: "u1", note: "our CEO" }] });
    const id = (list as { data: AllowEntryView[] }).data[0]?.id;
    expect(await merchant.browser.mutate("allowList.remove", { id })).toMatchObject({ ok: true });
    expect((await signup()).decision).toBe("block");
  });

  it("matches IP ranges and lowercases emails; a block-list entry for the same value wins", async () => {
    const { merchant, add, signup } = await setUp("ranges");
    expect(await add({ kind: "ip_cidr", value: "203.0.113.0/24" })).toMatchObject({ ok: true });
    expect((await signup({ ip: "203.0.113.77" })).allowed?.kind).toBe("ip_cidr");
    expect((await signup({ ip: "198.51.100.1" })).decision).toBe("block");

    expect(await add({ kind: "email", value: "Y@Mailinator.com" })).toMatchObject({
      ok: true,
      data: { value: "y@mailinator.com" },
    });
    expect((await signup({ email: "y@mailinator.com", user_id: "u9" })).allowed?.kind).toBe(
      "email",
    );

    const blocked = await merchant.api.json("/api/blocklist", {
      method: "PUT",
      body: { countries: [], email_providers: ["spam.example"] },
    });
    expect(blocked.status).toBe(200);
    expect(await add({ kind: "email_domain", value: "spam.example" })).toMatchObject({ ok: true });
    const answer = await signup({ email: "a@spam.example", user_id: "u10" });
    expect(answer.decision).toBe("block");
    expect(answer.reasons[0]?.message).toBe("email provider spam.example is blocked");
  });

  it("stops applying an entry when it expires, without waiting for the policy cache", async () => {
    const { add, signup } = await setUp("expiry");
    const expires = new Date(clock.now().getTime() + HOUR).toISOString();
    expect(await add({ kind: "user_id", value: "u1", expires_at: expires })).toMatchObject({
      ok: true,
    });
    expect((await signup()).decision).toBe("allow");
    clock.advance(HOUR + 1000);
    expect((await signup()).decision).toBe("block");
  });

  it("refuses bad entries with 400 naming the field", async () => {
    const { add } = await setUp("invalid");
    for (const [entry, field] of [
      [{ kind: "ip_cidr", value: "203.0.113.0/33" }, "value"],
      [{ kind: "email_domain", value: "not a domain" }, "value"],
      [{ kind: "country", value: "US" }, "kind"],
      [{ kind: "user_id", value: "u1", expires_at: "2020-01-01T00:00:00Z" }, "expires_at"],
    ] as const) {
      const res = await add(entry);
      expect(res, JSON.stringify(entry)).toMatchObject({ ok: false, status: 400 });
      expect(JSON.stringify(res)).toContain(`"path":"${field}"`);
    }
  });

  it("puts the user on the allow list when a review is approved with always allow", async () => {
    const { merchant, backend } = await setUp("always");
    await turnOn(merchant, "rule_email", "rule_scraping");
    const review = await backend.decide({
      type: "request",
      user_agent: "python-requests/2.31",
      user_id: "u-bot",
    });
    expect(review.decision).toBe("review");
    const settled = await merchant.browser.mutate("review.settle", {
      id: review.id,
      decision: "approve",
      always_allow: true,
    });
    expect(settled).toMatchObject({ ok: true });
    const again = await backend.decide({
      type: "request",
      user_agent: "python-requests/2.31",
      user_id: "u-bot",
    });
    expect(again).toMatchObject({
      decision: "allow",
      allowed: { kind: "user_id", value: "u-bot" },
    });
    const list = await merchant.browser.query<AllowEntryView[]>("allowList.list");
    expect(list).toMatchObject({
      data: [{ kind: "user_id", value: "u-bot", note: "approved in review" }],
    });
  });
  it("says which entry allowed a screening in its history row and its detail", async () => {
    const { merchant, backend, add, signup } = await setUp("shown");
    const addedAt = clock.now().toISOString();
    await add({ kind: "user_id", value: "u1" });
    const answer = await signup();
    const allowed = {
      kind: "user_id",
      value: "u1",
      added_by: merchant.email,
      added_at: addedAt,
      message: `allowed: user id on allow list, added by ${merchant.email} on 2026-11-20`,
      rules: ["rule_email"],
    };
    expect(answer.allowed).toEqual(allowed);
    const detail = await backend.client.json<ScreeningDetail>(`/api/v1/screenings/${answer.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ decision: "allow", allowed });
    const list = await merchant.browser.query<{ items: ScreeningRow[] }>("screenings.list", {});
    expect(list).toMatchObject({ ok: true, data: { items: [{ id: answer.id, allowed }] } });
    const blocked = await signup({ user_id: "u2" });
    expect(blocked.allowed).toBeUndefined();
    const after = await merchant.browser.query<{ items: ScreeningRow[] }>("screenings.list", {});
    const rows = (after as { data: { items: ScreeningRow[] } }).data.items;
    expect(rows.find((row) => row.id === blocked.id)?.allowed).toBeNull();

    const doc = await new TestClient(t.baseUrl, {}).json<OpenApi>("/api/openapi.json");
    for (const [path, method] of [
      ["/api/v1/screenings/{id}", "get"],
      ["/api/v1/screen", "post"],
    ] as const) {
      const schema = doc.body.paths[path]?.[method]?.responses["200"]?.content["application/json"]
        ?.schema as { properties: Record<string, unknown> };
      expect(JSON.stringify(schema.properties.allowed), path).toContain('"added_by"');
    }
  });

  it("never matches a device entry with the device id the browser sent, only the backend's", async () => {
    const { merchant, backend, add } = await setUp("device");
    const pk = await shopCollectorKey(merchant);
    await turnOn(merchant, "rule_email", "rule_entropy");
    const claimed = "wd1_allowedallowedallowed00000";
    await add({ kind: "device", value: claimed });
    const fromBrowser = async (email: string) =>
      backend.decide({
        type: "signup",
        user_agent: BROWSER,
        email,
        signals: await tokenFor(t, pk, humanSignals({ device_id: claimed, webdriver: true })),
      });
    // A fraudster who learnt an allowed device id: a disposable email and a webdriver.
    const disposable = await fromBrowser("x@mailinator.com");
    expect(disposable).toMatchObject({ signals: "accepted", decision: "block" });
    expect(disposable.allowed).toBeUndefined();
    expect(disposable.reasons.map((reason) => reason.rule)).toEqual(["rule_email", "rule_entropy"]);
    // The same claim over a blocked email provider.
    const put = await merchant.api.json("/api/blocklist", {
      method: "PUT",
      body: { countries: [], email_providers: ["spam.example"] },
    });
    expect(put.status).toBe(200);
    const provider = await fromBrowser("x@spam.example");
    expect(provider.decision).toBe("block");
    expect(provider.allowed).toBeUndefined();
    // The merchant's backend sending that device id itself is trusted.
    const own = await backend.decide({
      type: "signup",
      user_agent: BROWSER,
      email: "y@mailinator.com",
      device_id: claimed,
    });
    expect(own).toMatchObject({ decision: "allow", allowed: { kind: "device", value: claimed } });
  });

  it("lets the block lists win over every kind of entry", async () => {
    const { merchant, add, signup } = await setUp("precedence");
    const put = await merchant.api.json("/api/blocklist", {
      method: "PUT",
      body: { countries: [], email_providers: ["spam.example"] },
    });
    expect(put.status).toBe(200);
    for (const entry of [
      { kind: "user_id", value: "u1" },
      { kind: "email", value: "x@spam.example" },
      { kind: "email_domain", value: "spam.example" },
      { kind: "ip_cidr", value: "203.0.113.0/24" },
      { kind: "device", value: "backend-device-1" },
    ]) {
      expect(await add(entry)).toMatchObject({ ok: true });
    }
    const answer = await signup({
      email: "x@spam.example",
      ip: "203.0.113.9",
      device_id: "backend-device-1",
    });
    expect(answer).toMatchObject({
      decision: "block",
      reasons: [{ rule: "rule_email", message: "email provider spam.example is blocked" }],
    });
    expect(answer.allowed).toBeUndefined();
    // Without the block list the same entries allow it.
    await merchant.api.json("/api/blocklist", {
      method: "PUT",
      body: { countries: [], email_providers: [] },
    });
    expect((await signup({ email: "x@mailinator.com", ip: "203.0.113.9" })).decision).toBe("allow");
  });

  it("refuses a range wider than a /16 (IPv6 /32) with a 400 naming the field and the limit", async () => {
    const { add } = await setUp("wide");
    for (const [value, limit] of [
      ["0.0.0.0/0", "/16"],
      ["128.0.0.0/1", "/16"],
      ["10.0.0.0/15", "/16"],
      ["::/0", "/32"],
      ["2001:db8::/31", "/32"],
      ["::ffff:0:0/96", "/112"],
      ["::/64", "/112"],
      ["::ffff:10.0.0.0/104", "/112"],
    ] as const) {
      const res = await add({ kind: "ip_cidr", value });
      expect(res, value).toMatchObject({ ok: false, status: 400 });
      expect(JSON.stringify(res), value).toContain('"path":"value"');
      expect(JSON.stringify(res), value).toContain(`must not be wider than ${limit}`);
    }
    for (const value of ["10.1.0.0/16", "2001:db8::/32", "::ffff:10.1.0.0/112", "203.0.113.7"]) {
      expect(await add({ kind: "ip_cidr", value }), value).toMatchObject({ ok: true });
    }
  });

  it("applies the allow list on history as it stood at each event's time", async () => {
    const { merchant, add, signup } = await setUp("history");
    await add({ kind: "user_id", value: "u1" });
    clock.advance(60_000);
    expect((await signup()).decision).toBe("allow");
    clock.advance(60_000);
    expect((await signup({ user_id: "u3" })).decision).toBe("block");
    clock.advance(60_000);
    // Listed after its event: it does not change that event's past decision.
    await add({ kind: "user_id", value: "u3" });
    const expires = new Date(clock.now().getTime() + 2 * 60_000).toISOString();
    await add({ kind: "user_id", value: "u4", expires_at: expires });
    clock.advance(60_000);
    expect((await signup({ user_id: "u4" })).decision).toBe("allow");
    clock.advance(2 * 60_000);
    expect((await signup({ user_id: "u4" })).decision).toBe("block");
    clock.advance(60_000);
    const result = await backtest(merchant, { ...(await pageSettings(merchant)), days: 1 });
    expect(result.screenings.total).toBe(4);
    expect(result.screenings.changes).toEqual({});
    expect(result.items).toEqual([]);
  });
});
