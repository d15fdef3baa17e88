/**
 * The browser collector's API over real HTTP, on the embedded database and on PostgreSQL:
 * publishable keys, CORS (a token only for the merchant's allowed origins), the collect body's
 * validation, the token's single use (also under two concurrent screens), its expiry and
 * account, and the signals reaching the rules when the backend did not send those fields.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  allowOrigins,
  collect,
  humanSignals,
  publishableKeyOf,
  SHOP,
  tokenFor,
} from "../helpers/collector.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(DB_KINDS)("browser collector API (%s)", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  let backend: Backend;
  let pk: string;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { COLLECT_RATE_LIMIT: "25" } });
    merchant = await signedInMerchant(t, `collector-${kind}@example.com`);
    backend = await backendOf(t, merchant);
    pk = (await publishableKeyOf(merchant)).key;
    await allowOrigins(merchant, [SHOP]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("creates a publishable key that cannot screen (403), and refuses a secret key at collect (403)", async () => {
    expect(pk).toMatch(/^wdn_pk_/);
    const listed = await merchant.api.json<{ kind: string }[]>("/api/api-keys");
    expect(listed.body.map((key) => key.kind).sort()).toEqual(["publishable", "secret"]);

    const screen = await new TestClient(t.baseUrl, { authorization: `Bearer ${pk}` }).json<{
      error: { message: string };
    }>("/api/v1/screen", { body: { type: "signup" } });
    expect(screen.status).toBe(403);
    expect(screen.body.error.message).toContain("publishable key");

    const secret = await collect(t, backend.key, humanSignals());
    expect(secret.status).toBe(403);
    expect(secret.body.error?.message).toContain(
      "secret key, which must never be used in a browser",
    );
    expect(secret.body.token).toBeUndefined();

    expect((await collect(t, "wdn_pk_madeupmadeupmadeupmadeupmadeup", humanSignals())).status).toBe(
      401,
    );
    const keyless = await fetch(`${t.baseUrl}/api/v1/collect`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: SHOP },
      body: JSON.stringify(humanSignals()),
    });
    expect(keyless.status).toBe(401);
  });

  it("answers a token only to an allowed origin, CORS with no credentials, and the preflight", async () => {
    const allowed = await collect(t, pk, humanSignals());
    expect(allowed.status).toBe(200);
    expect(allowed.body.token).toMatch(/^wdn_sig_/);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(allowed.headers.get("access-control-allow-credentials")).toBeNull();
    expect(allowed.headers.get("vary")?.toLowerCase()).toContain("origin");

    const other = await collect(t, pk, humanSignals(), { origin: "https://evil.example.net" });
    expect(other.status).toBe(403);
    expect(other.body.error?.message).toContain("https://evil.example.net is not one of");
    expect(other.body.token).toBeUndefined();
    expect((await collect(t, pk, humanSignals(), { origin: null })).status).toBe(403);

    const preflight = (origin: string) =>
      fetch(`${t.baseUrl}/api/v1/collect?key=${pk}`, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
      });
    const ok = await preflight(SHOP);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(ok.headers.get("access-control-allow-methods")).toBe("POST");
    expect(ok.headers.get("access-control-allow-headers")).toBe("content-type");

    const json = await collect(t, pk, humanSignals(), { type: "application/json" });
    expect(json.status).toBe(200);
  });

  it("answers a bad body with 400 naming the field, and a huge one with 413", async () => {
    const unknown = await collect(t, pk, { ...humanSignals(), password: "hunter2" });
    expect(unknown.status).toBe(400);
    // An allowed page can read why (warden.js puts the message in its Error).
    expect(unknown.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(unknown.body.error?.issues).toEqual([
      { path: "(root)", message: "Unknown key: password" },
    ]);
    const badZone = await collect(t, pk, humanSignals({ timezone: "not a zone" }));
    expect(badZone.status).toBe(400);
    expect(badZone.body.error?.message).toBe("timezone: must be an IANA time zone name");
    const negative = await collect(
      t,
      pk,
      humanSignals({ behavior: { ...humanSignals().behavior, key_events: -1 } }),
    );
    expect(negative.body.error?.message).toBe("behavior.key_events: must not be negative");
    const notJson = await collect(t, pk, "{not json");
    expect(notJson.status).toBe(400);
    expect(notJson.body.error?.message).toBe("body: must be a JSON object");
    const huge = await collect(t, pk, humanSignals({ url: `${SHOP}/${"a".repeat(9000)}` }));
    expect(huge.status).toBe(413);
  });

  it("feeds a screen once: fields the backend omitted come from the browser, the collect IP is kept beside", async () => {
    const token = await tokenFor(t, pk);
    const first = await backend.decide({ type: "signup", ip: "203.0.113.7", signals: token });
    expect(first).toMatchObject({ decision: "allow", signals: "accepted" });
    const stored = await t.prisma.screening.findUniqueOrThrow({ where: { id: first.id } });
    expect(stored.ip).toBe("203.0.113.7");
    expect(stored.collectIp).toMatch(/127\.0\.0\.1/);
    expect(stored.signals).toMatchObject({ device_id: humanSignals().device_id, origin: SHOP });
    expect(JSON.stringify(stored.input)).not.toContain(token);
    const tokenRow = await t.prisma.signalToken.findFirstOrThrow({
      where: { accountId: merchant.accountId },
    });
    expect(tokenRow.tokenHash).not.toContain(token.slice(8));

    const again = await backend.decide({ type: "signup", ip: "203.0.113.7", signals: token });
    expect(again).toMatchObject({ decision: "allow", signals: "used" });
    const list = await merchant.browser.query<{
      items: { id: string; collect_ip: string | null }[];
    }>("screenings.list", {});
    expect(list.ok).toBe(true);
    const items = list.ok ? list.data.items : [];
    expect(items.find((row) => row.id === first.id)?.collect_ip).toMatch(/127\.0\.0\.1/);
  });

  it("lets exactly one of two concurrent screens consume a token", async () => {
    for (let round = 0; round < 5; round++) {
      const token = await tokenFor(t, pk);
      const answers = await Promise.all(
        [1, 2].map((n) =>
          backend.decide({ type: "login", user_id: `race-${round}-${n}`, signals: token }),
        ),
      );
      expect(answers.map((answer) => answer.signals).sort()).toEqual(["accepted", "used"]);
    }
  });

  it("says invalid for a malformed, unknown or other account's token, and expired after 10 minutes", async () => {
    const other = await signedInMerchant(t, `collector-other-${kind}@example.com`);
    const otherBackend = await backendOf(t, other);
    const token = await tokenFor(t, pk);
    for (const signals of ["garbage", "wdn_sig_unknownunknownunknownunknown", token]) {
      const answer = await otherBackend.decide({ type: "login", signals });
      expect(answer, signals).toMatchObject({ decision: "allow", signals: "invalid" });
    }
    // The other account's attempt did not spend it.
    expect((await backend.decide({ type: "login", signals: token })).signals).toBe("accepted");

    const late = await tokenFor(t, pk);
    const before = t.clock.now();
    t.clock.advance(10 * 60 * 1000 + 1);
    try {
      expect((await backend.decide({ type: "login", signals: late })).signals).toBe("expired");
      // Housekeeping deletes tokens a day after they expired, not before.
      expect((await t.app.services.housekeeping.purgeExpired()).collectorTokens).toBe(0);
      t.clock.advance(24 * 60 * 60 * 1000);
      expect((await t.app.services.housekeeping.purgeExpired()).collectorTokens).toBeGreaterThan(0);
      expect(await t.prisma.signalToken.count({ where: { accountId: merchant.accountId } })).toBe(
        0,
      );
    } finally {
      t.clock.set(before);
    }
  });

  it("feeds the rules: automation and hurried forms to rule_entropy, timezone, referrer and device reuse", async () => {
    const shop = await signedInMerchant(t, `collector-rules-${kind}@example.com`);
    const shopBackend = await backendOf(t, shop);
    const shopPk = (await publishableKeyOf(shop)).key;
    await allowOrigins(shop, [SHOP]);
    await turnOn(
      shop,
      "rule_entropy",
      "rule_timezone_mismatch",
      "rule_referrer_mismatch",
      "rule_device_fingerprint_reuse",
    );
    const screenWith = async (
      signals: Record<string, unknown>,
      event: Record<string, unknown> = {},
    ) =>
      shopBackend.decide({
        type: "signup",
        signals: await tokenFor(t, shopPk, humanSignals(signals)),
        ...event,
      } as never);

    expect(await screenWith({})).toMatchObject({ decision: "allow", reasons: [] });
    expect(await screenWith({ webdriver: true })).toMatchObject({
      decision: "review",
      reasons: [{ rule: "rule_entropy", observed: "webdriver" }],
    });
    const hurried = await screenWith({
      behavior: { ...humanSignals().behavior, time_to_submit_ms: 240 },
    });
    expect(hurried.reasons).toEqual([
      expect.objectContaining({
        rule: "rule_entropy",
        action: "review",
        message: "the form was submitted 240 ms after it was first touched (limit 1500 ms)",
        observed: 240,
        limit: 1500,
      }),
    ]);
    const still = await screenWith({
      behavior: { ...humanSignals().behavior, pointer_events: 0, key_events: 0 },
    });
    expect(still.reasons).toEqual([
      expect.objectContaining({ rule: "rule_entropy", observed: 0, limit: 1 }),
    ]);

    // A German IP with a New York browser clock; the backend's own timezone wins when sent.
    expect(await screenWith({}, { ip: "85.214.132.117" })).toMatchObject({
      reasons: [{ rule: "rule_timezone_mismatch", observed: "America/New_York" }],
    });
    expect(await screenWith({}, { ip: "85.214.132.117", timezone: "Europe/Berlin" })).toMatchObject(
      { decision: "allow" },
    );

    expect(await screenWith({ url: "https://phish.example.org/signup" })).toMatchObject({
      decision: "block",
      reasons: [
        {
          rule: "rule_referrer_mismatch",
          observed: "shop.example.com",
          limit: "phish.example.org",
        },
      ],
    });

    const device = "wd1_sharedsharedsharedshared0000";
    const users = [1, 2, 3, 4].map((n) => `farm${n}@example.com`);
    const answers = [];
    for (const email of users) answers.push(await screenWith({ device_id: device }, { email }));
    expect(answers.at(-1)).toMatchObject({
      decision: "block",
      reasons: [{ rule: "rule_device_fingerprint_reuse", observed: 4, limit: 3 }],
    });
    // The backend's own device id wins over the collected one.
    expect(
      await screenWith(
        { device_id: device },
        { email: "farm5@example.com", device_id: "backend-dev" },
      ),
    ).toMatchObject({ decision: "allow" });
  });

  it("limits collects per key and browser IP with 429 and Retry-After", async () => {
    const limited = await signedInMerchant(t, `collector-limit-${kind}@example.com`);
    const key = (await publishableKeyOf(limited)).key;
    await allowOrigins(limited, [SHOP]);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 27; i++) {
      const res = await collect(t, key, humanSignals());
      statuses.push(res.status);
      retryAfter ??= res.headers.get("retry-after");
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(25);
    expect(statuses.slice(25)).toEqual([429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
