/**
 * The screening API over real HTTP with real API keys, on the embedded database and on
 * PostgreSQL: keys, the contract, velocity at the boundary, monitor mode, isolation between
 * merchants, rate limits, and the console's list.
 */
import { describe, expect, it } from "vitest";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";
import { trialFrom } from "./trials.ts";

describe.each(DB_KINDS)("screening API (%s)", (kind) => {
  let t: TestApp;
  withTestApp(kind, { env: { SCREEN_RATE_LIMIT: "40" } }, (app) => {
    t = app;
  });

  it("creates a key shown once, lists only its start, and revokes it", async () => {
    const merchant = await signedInMerchant(t, `keys-${kind}@example.com`);
    const backend = await backendOf(t, merchant, "production");
    expect(backend.key).toMatch(/^wdn_sk_[a-z2-7]{30,}$/);
    const listed = await merchant.api.json<{ name: string; start: string }[]>("/api/api-keys");
    expect(listed.body).toEqual([
      expect.objectContaining({
        name: "production",
        start: backend.key.slice(0, 12),
        last_used_at: null,
      }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(backend.key);
    const stored = await t.prisma.apiKey.findUniqueOrThrow({ where: { id: backend.keyId } });
    expect(stored.keyHash).not.toContain(backend.key);
    expect(stored.keyHash).toMatch(/^[0-9a-f]{64}$/);

    expect((await backend.screen({ type: "login" })).status).toBe(200);
    const revoked = await merchant.api.request(`/api/api-keys/${backend.keyId}`, {
      method: "DELETE",
    });
    expect(revoked.status).toBe(204);
    const after = await backend.screen({ type: "login" });
    expect(after.status).toBe(401);
    expect((await merchant.api.json<unknown[]>("/api/api-keys")).body).toEqual([]);
  });

  it("refuses a missing, unknown or session credential with 401", async () => {
    const merchant = await signedInMerchant(t, `auth-${kind}@example.com`);
    const body = { type: "signup" };
    const none = await new TestClient(t.baseUrl, {}).json("/api/v1/screen", { body });
    expect(none.status).toBe(401);
    const made_up = await new TestClient(t.baseUrl, {
      authorization: "Bearer wdn_sk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    }).json("/api/v1/screen", { body });
    expect(made_up.status).toBe(401);
    const session = await merchant.api.json("/api/v1/screen", { body });
    expect(session.status).toBe(401);
    const cookie = await merchant.browser.mutate("screening.screen", body);
    expect(cookie).toMatchObject({ ok: false, status: 401 });
  });

  it("answers bad input with 400 naming the field, and stores nothing", async () => {
    const merchant = await signedInMerchant(t, `input-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    const cases: [Record<string, unknown>, string][] = [
      [{}, "type"],
      [{ type: "purchase" }, "type"],
      [{ type: "signup", ip: "999.1.1.1" }, "ip"],
      [{ type: "signup", email: "not-an-email" }, "email"],
      [{ type: "checkout", amount: 12.5 }, "amount"],
      [{ type: "signup", userid: "x" }, "(root)"],
      [{ type: "signup", origin: "shop" }, "origin"],
    ];
    for (const [body, field] of cases) {
      const res = await backend.screen(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(
        (res.body as unknown as { error: { issues: { path: string }[] } }).error.issues[0]?.path,
      ).toBe(field);
    }
    expect(await t.prisma.screening.count({ where: { accountId: merchant.accountId } })).toBe(0);
  });

  it("allows the 5th signup from an IP in an hour and blocks the 6th, saying why", async () => {
    const merchant = await signedInMerchant(t, `velocity-${kind}@example.com`);
    await turnOn(merchant, "rule_signup_velocity");
    const backend = await backendOf(t, merchant);
    for (let i = 1; i <= 5; i++) {
      const answer = await backend.decide({
        type: "signup",
        ip: "203.0.113.7",
        email: `p${i}@example.com`,
      });
      expect(answer.decision, `signup ${i}`).toBe("allow");
    }
    const sixth = await backend.decide({
      type: "signup",
      ip: "203.0.113.7",
      email: "p6@example.com",
    });
    expect(sixth).toMatchObject({
      decision: "block",
      reasons: [
        {
          rule: "rule_signup_velocity",
          action: "block",
          message: "6th signup from 203.0.113.7 in 1 h (limit 5)",
          observed: 6,
          limit: 5,
        },
      ],
      monitored: [],
    });
    // The risk score is its parts' sum (no threshold acts: no template is on).
    const sum = sixth.contributions.reduce((total, c) => total + c.points, 0);
    expect(sixth.score).toBe(Math.max(0, Math.min(100, sum)));
    expect(sixth.contributions[0]).toMatchObject({ signal: "baseline" });
    expect(sixth.took_ms).toBeGreaterThan(0);
    expect(sixth.id).toMatch(/^[0-9a-f-]{36}$/);
    // An hour later the window has moved on.
    t.clock.advance(61 * 60_000);
    expect((await backend.decide({ type: "signup", ip: "203.0.113.7" })).decision).toBe("allow");
  });

  it("reviews a second account's trial from the same device and blocks the third (One Human One Trial), naming the device", async () => {
    const merchant = await signedInMerchant(t, `trial-${kind}@example.com`);
    const put = await merchant.api.json<Record<string, boolean>>("/api/templates");
    await merchant.api.json("/api/templates", {
      method: "PUT",
      body: { ...put.body, template_one_human_one_trial: true },
    });
    const backend = await backendOf(t, merchant);
    const first = await trialFrom(backend, "dev-42", "a@example.com", "198.51.100.1");
    expect(first.decision).toBe("allow");
    const second = await trialFrom(backend, "dev-42", "b@example.com", "198.51.100.2");
    // A family may share a laptop: the second account's trial on it is reviewed, not blocked.
    expect(second.decision).toBe("review");
    expect(second.reasons[0]?.message).toBe(
      "a second account's trial on this device (dev-42) in 365 days: 1 other account before it (reviewed: a family may share a device; the third is blocked)",
    );
    const third = await trialFrom(backend, "dev-42", "c@example.com", "198.51.100.6");
    expect(third.decision).toBe("block");
    expect(third.reasons[0]?.message).toBe(
      "a trial was already started with this device (dev-42) in 365 days: 2 other accounts (limit: two trials per device)",
    );
    // A +tag folds on every domain (a company's or a farm's own): a+again@ is a@'s inbox.
    const retry = await backend.decide({
      type: "trial_start",
      email: "a+again@example.com",
      ip: "198.51.100.3",
    });
    expect(retry).toMatchObject({ decision: "block", reasons: [{ rule: "rule_ip" }] });
    expect(retry.reasons[0]?.message).toMatch(/with this email \(a@example\.com\)/);
    // The same person with gmail dots and a +tag is the same email.
    await backend.decide({ type: "trial_start", email: "jane.doe@gmail.com", ip: "198.51.100.4" });
    const again = await backend.decide({
      type: "trial_start",
      email: "janedoe+2@googlemail.com",
      ip: "198.51.100.5",
    });
    expect(again).toMatchObject({ decision: "block", reasons: [{ rule: "rule_ip" }] });
  });

  it("reports a rule in monitor mode without changing the decision", async () => {
    const merchant = await signedInMerchant(t, `monitor-${kind}@example.com`);
    await turnOn(merchant, "rule_signup_velocity");
    const put = await merchant.api.json("/api/rule-settings", {
      method: "PUT",
      body: { rule_signup_velocity: { mode: "monitor", per_ip_per_hour: 1 } },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      rule_signup_velocity: {
        action: "block",
        mode: "monitor",
        per_ip_per_hour: 1,
        per_subnet_per_hour: 20,
      },
    });
    const backend = await backendOf(t, merchant);
    await backend.decide({ type: "signup", ip: "192.0.2.10" });
    const second = await backend.decide({ type: "signup", ip: "192.0.2.10" });
    expect(second).toMatchObject({
      decision: "allow",
      reasons: [],
      monitored: [
        { rule: "rule_signup_velocity", message: "2nd signup from 192.0.2.10 in 1 h (limit 1)" },
      ],
    });
  });

  it("keeps merchants apart: B's key never sees or counts A's events", async () => {
    const a = await signedInMerchant(t, `iso-a-${kind}@example.com`);
    const b = await signedInMerchant(t, `iso-b-${kind}@example.com`);
    await turnOn(a, "rule_signup_velocity");
    await turnOn(b, "rule_signup_velocity");
    const backendA = await backendOf(t, a);
    const backendB = await backendOf(t, b);
    for (let i = 0; i < 6; i++) await backendA.decide({ type: "signup", ip: "203.0.113.99" });
    expect((await backendB.decide({ type: "signup", ip: "203.0.113.99" })).decision).toBe("allow");
    const listB = await b.browser.query<{ items: { ip: string }[] }>("screenings.list", {});
    expect(listB).toMatchObject({ ok: true, data: { items: [{ ip: "203.0.113.99" }] } });
    const keysB = await b.api.json<{ id: string }[]>("/api/api-keys");
    expect(keysB.body.map((key) => key.id)).toEqual([backendB.keyId]);
    // B cannot revoke A's key.
    const steal = await b.api.request(`/api/api-keys/${backendA.keyId}`, { method: "DELETE" });
    expect(steal.status).toBe(404);
    expect((await backendA.screen({ type: "login" })).status).toBe(200);
  });

  it("answers 429 with Retry-After past the key's budget", async () => {
    const merchant = await signedInMerchant(t, `limit-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    let limited: Awaited<ReturnType<typeof backend.screen>> | undefined;
    for (let i = 0; i < 45 && !limited; i++) {
      const res = await backend.screen({ type: "request", ip: "192.0.2.77" });
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(200);
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0);
    // The typed procedure shares the budget and says when to come back too.
    const typed = await backend.client.request("/trpc/screening.screen", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "request" }),
    });
    expect(typed.status).toBe(429);
    expect(Number(typed.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("lists screenings for the console with counts, filters and search", async () => {
    const merchant = await signedInMerchant(t, `console-${kind}@example.com`);
    await turnOn(merchant, "rule_signup_velocity");
    await merchant.api.json("/api/rule-settings", {
      method: "PUT",
      body: { rule_signup_velocity: { per_ip_per_hour: 1 } },
    });
    const backend = await backendOf(t, merchant);
    await backend.decide({
      type: "signup",
      ip: "192.0.2.20",
      email: "first@example.com",
      user_id: "u1",
    });
    await backend.decide({
      type: "signup",
      ip: "192.0.2.20",
      email: "second@example.com",
      user_id: "u2",
    });
    await backend.decide({
      type: "login",
      ip: "192.0.2.21",
      email: "first@example.com",
      user_id: "u1",
    });
    const counts = await merchant.browser.query("screenings.counts");
    expect(counts).toMatchObject({ ok: true, data: { allow: 2, review: 0, block: 1 } });
    const blocked = await merchant.browser.query<{
      items: { email: string; reasons: unknown[] }[];
    }>("screenings.list", { decision: "block" });
    expect(blocked).toMatchObject({
      ok: true,
      data: {
        items: [{ email: "second@example.com", reasons: [{ rule: "rule_signup_velocity" }] }],
      },
    });
    const byRule = await merchant.browser.query<{ items: unknown[] }>("screenings.list", {
      rule: "rule_signup_velocity",
    });
    expect(byRule.ok && byRule.data.items).toHaveLength(1);
    const byEmail = await merchant.browser.query<{ items: unknown[] }>("screenings.list", {
      search: "first@",
    });
    expect(byEmail.ok && byEmail.data.items).toHaveLength(2);
    const byIp = await merchant.browser.query<{ items: unknown[] }>("screenings.list", {
      search: "192.0.2.21",
    });
    expect(byIp.ok && byIp.data.items).toHaveLength(1);
    const byUser = await merchant.browser.query<{ items: unknown[] }>("screenings.list", {
      search: "u2",
    });
    expect(byUser.ok && byUser.data.items).toHaveLength(1);
    const page1 = await merchant.browser.query<{ items: { id: string }[]; nextCursor: string }>(
      "screenings.list",
      { limit: 2 },
    );
    expect(page1.ok && page1.data.items).toHaveLength(2);
    const page2 = await merchant.browser.query<{
      items: { id: string }[];
      nextCursor: string | null;
    }>("screenings.list", { limit: 2, cursor: page1.ok ? page1.data.nextCursor : "" });
    expect(page2).toMatchObject({ ok: true, data: { nextCursor: null } });
    expect(page2.ok && page2.data.items).toHaveLength(1);
  });
});

describe.each(DB_KINDS)("screening under concurrency (%s)", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  it("lets one of five simultaneous trial starts from one device through, one more to review, and blocks three", async () => {
    const merchant = await signedInMerchant(t, `race-${kind}@example.com`);
    await turnOn(merchant, "rule_ip");
    const backend = await backendOf(t, merchant);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        backend.decide({ type: "trial_start", device_id: "dev-race", email: `r${n}@example.com` }),
      ),
    );
    // At most one through unflagged and at most two unblocked (the second account's trial on a
    // device is reviewed, the third's blocked): screened one at a time, exactly these.
    expect(answers.map((a) => a.decision).sort()).toEqual([
      "allow",
      "block",
      "block",
      "block",
      "review",
    ]);
  });

  it("redeems a promo code once per email, even when both redemptions arrive at once", async () => {
    const merchant = await signedInMerchant(t, `promo-race-${kind}@example.com`);
    await turnOn(merchant, "rule_promo_abuse");
    const backend = await backendOf(t, merchant);
    const answers = await Promise.all(
      [1, 2].map(() =>
        backend.decide({
          type: "promo_redemption",
          promo_code: "WELCOME10",
          email: "Jane.Doe+x@gmail.com",
        }),
      ),
    );
    expect(answers.map((a) => a.decision).sort()).toEqual(["allow", "block"]);
  });
});
