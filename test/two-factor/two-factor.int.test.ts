/**
 * Two-factor sign-in end to end over HTTP, on both databases: enrolment, the sign-in's second
 * step (tRPC and REST), codes good once, the wrong-code limit, recovery codes (also raced),
 * turning it off, an account that requires it, and the audit events each writes. Codes are
 * computed by test/helpers/totp.ts from the app's test clock, as an authenticator app would.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { MESSAGES } from "../../shared/messages.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient, type TrpcResult } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { totp } from "../helpers/totp.ts";
import { withTestApp } from "../with-test-app.ts";

const STEP_MS = 30_000;
const MINUTE = 60_000;
const CODE_SHAPE = /^[a-z2-7]{5}-[a-z2-7]{5}$/;

/** What a console session can do once signed in, one procedure per permission kind. */
const CONSOLE_QUERIES = [
  "rules.get",
  "settings.get",
  "templates.get",
  "apiKeys.list",
  "review.count",
];

type Enrolment = { secret: string; uri: string; qr_svg: string };
type Codes = { recovery_codes: string[] };

describe.each(DB_KINDS)("two-factor sign-in on %s", (kind) => {
  let t: TestApp;
  let serial = 0;
  withTestApp(kind, {}, (app) => {
    t = app;
  });
  // Every test logs in several times from 127.0.0.1: start each one past the last's
  // 15-minute login and wrong-code windows.
  beforeEach(() => {
    t.clock.advance(16 * MINUTE);
  });

  const code = () => totp(secretOf.current, t.clock.now());
  const secretOf = { current: "" };
  const nextStep = () => t.clock.advance(STEP_MS);

  async function merchant(): Promise<Merchant> {
    serial += 1;
    return signedInMerchant(t, `two-factor-${serial}@example.com`);
  }

  /** Turns two-factor on for `m` from their signed-in browser session; returns the codes. */
  async function enrol(m: Merchant): Promise<{ secret: string; codes: string[] }> {
    const begun = await m.browser.mutate<Enrolment>("twoFactor.begin", { password: m.password });
    if (!begun.ok) throw new Error(`begin failed: ${begun.error.message}`);
    const secret = begun.data.secret;
    secretOf.current = secret;
    const confirmed = await m.browser.mutate<Codes>("twoFactor.confirm", {
      code: totp(secret, t.clock.now()),
    });
    if (!confirmed.ok) throw new Error(`confirm failed: ${confirmed.error.message}`);
    // The step that confirmed enrolment is spent: signing in takes the next one.
    nextStep();
    return { secret, codes: confirmed.data.recovery_codes };
  }

  /** A fresh browser that has given its password and owes the second factor. */
  async function passwordOnly(m: Merchant): Promise<TestClient> {
    const c = new TestClient(t.baseUrl);
    const login = await c.mutate<{ user: { twoFactor: boolean } }>("auth.login", {
      email: m.email,
      password: m.password,
    });
    expect(login).toMatchObject({ ok: true, data: { user: { twoFactor: true } } });
    return c;
  }

  function expectRefused(result: TrpcResult, status: number, message?: string) {
    expect(result, JSON.stringify(result)).toMatchObject({ ok: false, status });
    if (message && !result.ok) expect(result.error.message).toBe(message);
  }

  function expectFieldError(result: TrpcResult, path: string, message?: string) {
    expectRefused(result, 400, message);
    if (!result.ok) expect(result.error.data.issues?.map((i) => i.path)).toContain(path);
  }

  async function auditActions(accountId: string, userId: string) {
    const rows = await t.prisma.auditEvent.findMany({
      where: { accountId, actorId: userId },
      orderBy: { at: "asc" },
    });
    return rows.map((row) => ({ action: row.action, after: row.after }));
  }

  async function userOf(m: Merchant) {
    return t.prisma.user.findUniqueOrThrow({ where: { email: m.email } });
  }

  it("computes RFC 6238's published code in the test helper (so its codes can be trusted)", () => {
    const key = Buffer.from("12345678901234567890");
    expect(totp(key, new Date(59_000), 8)).toBe("94287082");
    expect(totp(key, new Date(1111111109_000))).toBe("081804");
  });

  it("enrols with the password and a code from the app; the secret and codes are not stored in the clear", async () => {
    const m = await merchant();
    const status = await m.browser.query("twoFactor.status");
    expect(status).toMatchObject({
      ok: true,
      data: { enabled: false, enabled_at: null, recovery_codes_left: 0 },
    });

    expectFieldError(
      await m.browser.mutate("twoFactor.begin", { password: "not my password" }),
      "password",
      MESSAGES.currentPasswordWrong,
    );
    const begun = await m.browser.mutate<Enrolment>("twoFactor.begin", { password: m.password });
    expect(begun.ok).toBe(true);
    if (!begun.ok) return;
    const { secret, uri, qr_svg } = begun.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toBe(
      `otpauth://totp/Warden:${encodeURIComponent(m.email)}?issuer=Warden&algorithm=SHA1&secret=${secret}&period=30&digits=6`,
    );
    expect(qr_svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*<\/svg>$/s);
    const pending = await userOf(m);
    expect(pending.totpPendingSecret).toMatch(/^v1\./);
    expect(pending.totpPendingSecret).not.toContain(secret);
    expect(pending.totpEnabledAt).toBeNull();

    // Not on until confirmed: a login still needs the password only.
    const before = new TestClient(t.baseUrl);
    expect(
      await before.mutate("auth.login", { email: m.email, password: m.password }),
    ).toMatchObject({ ok: true, data: { user: { twoFactor: false } } });

    expectFieldError(
      await m.browser.mutate("twoFactor.confirm", { code: "000000" }),
      "code",
      MESSAGES.twoFactorCodeWrong,
    );
    const confirmed = await m.browser.mutate<Codes>("twoFactor.confirm", {
      code: totp(secret, t.clock.now()),
    });
    expect(confirmed.ok).toBe(true);
    if (!confirmed.ok) return;
    const codes = confirmed.data.recovery_codes;
    expect(codes).toHaveLength(10);
    for (const recovery of codes) expect(recovery).toMatch(CODE_SHAPE);

    const user = await userOf(m);
    expect(user.totpPendingSecret).toBeNull();
    expect(user.totpSecret).toMatch(/^v1\./);
    expect(user.totpSecret).not.toContain(secret);
    const stored = await t.prisma.recoveryCode.findMany({ where: { userId: user.id } });
    expect(stored).toHaveLength(10);
    const hashes = stored.map((row) => row.codeHash).join(" ");
    for (const recovery of codes) {
      expect(hashes).not.toContain(recovery);
      expect(hashes).not.toContain(recovery.replace("-", ""));
    }
    expect(await m.browser.query("twoFactor.status")).toMatchObject({
      ok: true,
      data: { enabled: true, enabled_at: t.clock.now().toISOString(), recovery_codes_left: 10 },
    });
    // Once on, it cannot be begun again (that would replace the secret without a code).
    expectRefused(
      await m.browser.mutate("twoFactor.begin", { password: m.password }),
      409,
      MESSAGES.twoFactorAlreadyOn,
    );
    expect(await auditActions(m.accountId, user.id)).toContainEqual({
      action: "two_factor.enabled",
      after: null,
    });
  });

  it("after the password, the session can do nothing but give the code (401), then everything", async () => {
    const m = await merchant();
    await enrol(m);
    const c = await passwordOnly(m);
    expect(await c.query("auth.me")).toMatchObject({
      ok: true,
      data: { email: m.email, pendingTwoFactor: true, mustEnrolTwoFactor: false },
    });
    for (const path of [...CONSOLE_QUERIES, "twoFactor.status", "auth.accounts"]) {
      expectRefused(await c.query(path), 401, MESSAGES.twoFactorPending);
    }
    expectRefused(await c.mutate("rules.put", { threshold: 70 }), 401, MESSAGES.twoFactorPending);
    expectRefused(
      await c.mutate("twoFactor.disable", { password: m.password, code: code() }),
      401,
      MESSAGES.twoFactorPending,
    );

    expectFieldError(
      await c.mutate("auth.verifyTwoFactor", { code: "123456" === code() ? "654321" : "123456" }),
      "code",
      MESSAGES.twoFactorCodeWrong,
    );
    expectRefused(await c.query("rules.get"), 401);

    expect(await c.mutate("auth.verifyTwoFactor", { code: code() })).toMatchObject({
      ok: true,
      data: { ok: true, method: "totp" },
    });
    expect(await c.query("auth.me")).toMatchObject({ data: { pendingTwoFactor: false } });
    for (const path of CONSOLE_QUERIES) {
      expect((await c.query(path)).ok, path).toBe(true);
    }
    // Whole already: no second code is asked for or taken.
    expectRefused(
      await c.mutate("auth.verifyTwoFactor", { code: code() }),
      400,
      MESSAGES.twoFactorNotPending,
    );

    const events = await auditActions(m.accountId, (await userOf(m)).id);
    expect(events).toContainEqual({ action: "auth.two_factor_failed", after: null });
    expect(events).toContainEqual({ action: "auth.sign_in", after: { method: "totp" } });
  });

  it("over REST: login answers twoFactorRequired, and POST /api/auth/two-factor completes it", async () => {
    const m = await merchant();
    const plain = await new TestClient(t.baseUrl, {}).json<{ twoFactorRequired: boolean }>(
      "/api/auth/login",
      { body: { email: m.email, password: m.password } },
    );
    expect(plain).toMatchObject({ status: 200, body: { twoFactorRequired: false } });

    await enrol(m);
    const login = await new TestClient(t.baseUrl, {}).json<{
      token: string;
      twoFactorRequired: boolean;
    }>("/api/auth/login", { body: { email: m.email, password: m.password } });
    expect(login).toMatchObject({ status: 200, body: { twoFactorRequired: true } });
    const api = new TestClient(t.baseUrl, { authorization: `Bearer ${login.body.token}` });
    expect((await api.json("/api/rules")).status).toBe(401);
    expect((await api.json("/api/two-factor")).status).toBe(401);

    const wrong = await api.json<{ error: { issues: { path: string }[] } }>(
      "/api/auth/two-factor",
      { body: { code: "12" } },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.issues.map((i) => i.path)).toEqual(["code"]);

    const done = await api.json("/api/auth/two-factor", { body: { code: code() } });
    expect(done).toMatchObject({ status: 200, body: { ok: true, method: "totp" } });
    expect((await api.json("/api/rules")).status).toBe(200);
    expect(await api.json("/api/two-factor")).toMatchObject({
      status: 200,
      body: { enabled: true, recovery_codes_left: 10 },
    });

    // Anonymous: 401 before anything is read.
    const anonymous = new TestClient(t.baseUrl, {});
    expect((await anonymous.json("/api/auth/two-factor", { body: { code: code() } })).status).toBe(
      401,
    );
  });

  it("takes a code once: the same step again, or an earlier one, is refused", async () => {
    const m = await merchant();
    await enrol(m);
    const first = await passwordOnly(m);
    const second = await passwordOnly(m);
    const now = code();
    expect((await first.mutate("auth.verifyTwoFactor", { code: now })).ok).toBe(true);
    expectFieldError(
      await second.mutate("auth.verifyTwoFactor", { code: now }),
      "code",
      MESSAGES.twoFactorCodeUsed,
    );
    // The previous step's code is still inside the window, but older than the one accepted.
    const earlier = totp(secretOf.current, new Date(t.clock.now().getTime() - STEP_MS));
    expectFieldError(
      await second.mutate("auth.verifyTwoFactor", { code: earlier }),
      "code",
      MESSAGES.twoFactorCodeUsed,
    );
    // Two steps back is outside the window altogether: simply wrong.
    const stale = totp(secretOf.current, new Date(t.clock.now().getTime() - 2 * STEP_MS));
    expectFieldError(
      await second.mutate("auth.verifyTwoFactor", { code: stale }),
      "code",
      MESSAGES.twoFactorCodeWrong,
    );
    expectRefused(await second.query("rules.get"), 401);
    nextStep();
    expect((await second.mutate("auth.verifyTwoFactor", { code: code() })).ok).toBe(true);
    expect((await second.query("rules.get")).ok).toBe(true);
  });

  it("refuses the sixth code in 15 minutes with 429, even a right one, until the window passes", async () => {
    const m = await merchant();
    const { codes } = await enrol(m);
    const c = await passwordOnly(m);
    const wrong = code() === "111111" ? "222222" : "111111";
    for (let attempt = 1; attempt <= 5; attempt++) {
      expectFieldError(
        await c.mutate("auth.verifyTwoFactor", { code: wrong }),
        "code",
        MESSAGES.twoFactorCodeWrong,
      );
    }
    const limited = await c.request("/trpc/auth.verifyTwoFactor", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: code() }),
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Recovery codes count against the same limit (else they would be a way around it).
    expectRefused(
      await c.mutate("auth.verifyTwoFactor", { code: codes[0] }),
      429,
      MESSAGES.tooManyTwoFactorFailures,
    );
    expectRefused(await c.query("rules.get"), 401);

    t.clock.advance(15 * MINUTE);
    expect((await c.mutate("auth.verifyTwoFactor", { code: code() })).ok).toBe(true);
    // The recovery code tried while limited was not spent.
    expect(await c.query("twoFactor.status")).toMatchObject({
      data: { recovery_codes_left: 10 },
    });
  });

  it("signs in with a recovery code once; two racing uses of one code let only one through", async () => {
    const m = await merchant();
    const { codes } = await enrol(m);
    const [firstCode = "", raced = "", typedLoosely = ""] = codes;
    const c = await passwordOnly(m);
    // The answer says how many codes are left, so the console can tell the person.
    expect(await c.mutate("auth.verifyTwoFactor", { code: firstCode })).toMatchObject({
      ok: true,
      data: { method: "recovery_code", recovery_codes_left: 9 },
    });
    expect(await c.query("twoFactor.status")).toMatchObject({
      data: { recovery_codes_left: 9 },
    });
    expectFieldError(
      await (await passwordOnly(m)).mutate("auth.verifyTwoFactor", { code: firstCode }),
      "code",
      MESSAGES.twoFactorCodeWrong,
    );

    // Four racers: with the wrong code above they make five attempts, the limit, so none is
    // refused as too many even when every attempt is counted before the winner clears them.
    const racers = await Promise.all(Array.from({ length: 4 }, () => passwordOnly(m)));
    const results = await Promise.all(
      racers.map((r) => r.mutate("auth.verifyTwoFactor", { code: raced })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const result of results.filter((r) => !r.ok)) {
      expectFieldError(result, "code", MESSAGES.twoFactorCodeWrong);
    }
    const whole = await Promise.all(racers.map(async (r) => (await r.query("rules.get")).ok));
    expect(whole.filter(Boolean)).toHaveLength(1);

    // Typed in capitals with a space instead of the dash: the same code.
    const loose = typedLoosely.toUpperCase().replace("-", " ");
    expect((await (await passwordOnly(m)).mutate("auth.verifyTwoFactor", { code: loose })).ok).toBe(
      true,
    );
    const used = await t.prisma.recoveryCode.count({
      where: { user: { email: m.email }, usedAt: { not: null } },
    });
    expect(used).toBe(3);
    expect(await auditActions(m.accountId, (await userOf(m)).id)).toContainEqual({
      action: "auth.sign_in",
      after: { method: "recovery_code" },
    });
  });

  it("turns off only with the password and a code, in the log of every account the person is in", async () => {
    const m = await merchant();
    const other = await merchant();
    const user = await userOf(m);
    await t.prisma.membership.create({
      data: { accountId: other.accountId, userId: user.id, role: "viewer" },
    });
    const { codes } = await enrol(m);

    expectFieldError(
      await m.browser.mutate("twoFactor.disable", { password: "wrong password", code: code() }),
      "password",
      MESSAGES.currentPasswordWrong,
    );
    expectFieldError(
      await m.browser.mutate("twoFactor.disable", { password: m.password, code: "000000" }),
      "code",
    );
    expectFieldError(await m.browser.mutate("twoFactor.disable", { password: m.password }), "code");
    expect((await userOf(m)).totpEnabledAt).not.toBeNull();

    const regenerated = await m.browser.mutate<Codes>("twoFactor.regenerateCodes", {
      code: codes[0],
    });
    expect(regenerated.ok).toBe(true);
    const fresh = regenerated.ok ? regenerated.data.recovery_codes : [];
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => codes.includes(c))).toEqual([]);
    // The old codes are gone with the regeneration: codes[1] no longer works.
    expectFieldError(
      await m.browser.mutate("twoFactor.disable", { password: m.password, code: codes[1] }),
      "code",
    );

    expect(
      await m.browser.mutate("twoFactor.disable", { password: m.password, code: code() }),
    ).toMatchObject({ ok: true });
    const off = await userOf(m);
    expect(off).toMatchObject({
      totpSecret: null,
      totpPendingSecret: null,
      totpEnabledAt: null,
      totpLastStep: null,
    });
    expect(await t.prisma.recoveryCode.count({ where: { userId: user.id } })).toBe(0);
    expect(
      await new TestClient(t.baseUrl).mutate("auth.login", {
        email: m.email,
        password: m.password,
      }),
    ).toMatchObject({ ok: true, data: { user: { twoFactor: false } } });

    for (const accountId of [m.accountId, other.accountId]) {
      const actions = (await auditActions(accountId, user.id)).map((e) => e.action);
      expect(actions, accountId).toEqual(
        expect.arrayContaining([
          "two_factor.enabled",
          "two_factor.recovery_codes_regenerated",
          "two_factor.disabled",
        ]),
      );
    }
    // The other account's own owner did none of this.
    expect(await auditActions(other.accountId, (await userOf(other)).id)).not.toContainEqual(
      expect.objectContaining({ action: "two_factor.enabled" }),
    );
  });

  it("an account that requires two-factor refuses a member without it (403) except to enrol", async () => {
    const m = await merchant();
    await t.prisma.account.update({
      where: { id: m.accountId },
      data: { requireTwoFactor: true },
    });
    expect(await m.browser.query("auth.me")).toMatchObject({
      data: { pendingTwoFactor: false, mustEnrolTwoFactor: true },
    });
    for (const path of CONSOLE_QUERIES) {
      expectRefused(await m.browser.query(path), 403, MESSAGES.twoFactorRequiredByAccount);
    }
    expect((await m.api.json("/api/rules")).status).toBe(403);
    expect(await m.browser.query("twoFactor.status")).toMatchObject({
      ok: true,
      data: { enabled: false, required_by_account: true },
    });

    await enrol(m);
    expect(await m.browser.query("auth.me")).toMatchObject({
      data: { mustEnrolTwoFactor: false, twoFactor: true },
    });
    for (const path of CONSOLE_QUERIES) {
      expect((await m.browser.query(path)).ok, path).toBe(true);
    }
    expect((await m.api.json("/api/rules")).status).toBe(200);
  });

  it("answers bad input with 400 and the field, and a start-less confirm with what to do", async () => {
    const m = await merchant();
    expectFieldError(
      await m.browser.mutate("twoFactor.confirm", { code: "123456" }),
      "code",
      MESSAGES.twoFactorNotStarted,
    );
    expectFieldError(await m.browser.mutate("twoFactor.confirm", { code: "12345a" }), "code");
    expectFieldError(await m.browser.mutate("twoFactor.confirm", {}), "code");
    expectFieldError(await m.browser.mutate("twoFactor.begin", {}), "password");
    expectFieldError(
      await m.browser.mutate("twoFactor.begin", { password: m.password, extra: 1 }),
      "(root)",
    );
    expectFieldError(
      await m.browser.mutate("auth.verifyTwoFactor", { code: "x".repeat(41) }),
      "code",
    );
    expectFieldError(await m.browser.mutate("auth.verifyTwoFactor", { code: "<script>" }), "code");
    expectRefused(
      await m.browser.mutate("twoFactor.disable", { password: m.password, code: "123456" }),
      400,
      MESSAGES.twoFactorNotOn,
    );
    const rest = await m.api.json<{ error: { issues: { path: string }[] } }>(
      "/api/two-factor/confirm",
      { body: { code: 123456 } },
    );
    expect(rest.status).toBe(400);
    expect(rest.body.error.issues.map((i) => i.path)).toEqual(["code"]);
    expectRefused(await new TestClient(t.baseUrl).query("twoFactor.status"), 401);
  });

  it("over REST: begins, confirms, regenerates and turns off", async () => {
    const m = await merchant();
    const begun = await m.api.json<Enrolment>("/api/two-factor/begin", {
      body: { password: m.password },
    });
    expect(begun.status).toBe(200);
    const secret = begun.body.secret;
    secretOf.current = secret;
    const confirmed = await m.api.json<Codes>("/api/two-factor/confirm", {
      body: { code: code() },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recovery_codes).toHaveLength(10);
    nextStep();
    const regenerated = await m.api.json<Codes>("/api/two-factor/recovery-codes", {
      body: { code: code() },
    });
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.recovery_codes).toHaveLength(10);
    const off = await m.api.json("/api/two-factor/disable", {
      body: { password: m.password, code: regenerated.body.recovery_codes[0] },
    });
    expect(off).toMatchObject({ status: 200, body: { ok: true } });
    expect(await m.api.json("/api/two-factor")).toMatchObject({
      status: 200,
      body: { enabled: false, recovery_codes_left: 0 },
    });
  });
});
