import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../../shared/messages.ts";
import { confirmedUser } from "../../../test/helpers/confirmed-user.ts";
import { DB_KINDS } from "../../../test/helpers/databases.ts";
import { TestClient } from "../../../test/helpers/http-client.ts";
import { linkIn } from "../../../test/helpers/smtp.ts";
import type { TestApp } from "../../../test/helpers/test-app.ts";
import { withTestApp } from "../../../test/with-test-app.ts";

const PASSWORD = "correct horse battery";
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe.each(DB_KINDS)("accounts and sessions on %s", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  const client = () => new TestClient(t.baseUrl);

  it("signs up, emails a confirmation, refuses login until confirmed, then logs in and out", async () => {
    const c = client();
    const email = "Owner@Example.com";
    const signup = await c.mutate("auth.signup", { email, password: PASSWORD });
    expect(signup).toMatchObject({ ok: true, data: { message: MESSAGES.signupSuccess } });

    const mail = await t.smtp.waitFor("owner@example.com", "Confirm your Warden account");
    const link = linkIn(mail, "/confirm-email");
    expect(link.origin).toBe(t.config.publicUrl);

    const early = await c.mutate("auth.login", { email, password: PASSWORD });
    expect(early).toMatchObject({ ok: false, status: 403 });
    if (!early.ok) expect(early.error.message).toBe(MESSAGES.emailNotConfirmed);

    const confirm = await c.mutate("auth.confirmEmail", {
      tokenHash: link.searchParams.get("tokenHash"),
      email: link.searchParams.get("email"),
    });
    expect(confirm.ok).toBe(true);
    const again = await c.mutate("auth.confirmEmail", {
      tokenHash: link.searchParams.get("tokenHash"),
      email: link.searchParams.get("email"),
    });
    expect(again).toMatchObject({ ok: false, status: 400 });

    const login = await c.mutate("auth.login", { email, password: PASSWORD });
    expect(login).toMatchObject({ ok: true, data: { user: { email: "owner@example.com" } } });
    const cookie = (await c.request("/trpc/auth.me")).headers;
    expect(c.cookies.get("warden_session")).toMatch(/^[a-z2-7]+\.[a-z2-7]+$/);
    expect(cookie).toBeDefined();

    const me = await c.query("auth.me");
    expect(me).toMatchObject({ ok: true, data: { email: "owner@example.com" } });
    const protectedCall = await c.mutate("auth.changePassword", {
      currentPassword: PASSWORD,
      password: "another password 1",
    });
    expect(protectedCall.ok).toBe(true);

    const token = c.cookies.get("warden_session");
    expect((await c.mutate("auth.logout")).ok).toBe(true);
    expect(c.cookies.has("warden_session")).toBe(false);
    const replay = new TestClient(t.baseUrl);
    replay.cookies.set("warden_session", token ?? "");
    const refused = await replay.mutate("auth.changePassword", {
      currentPassword: "another password 1",
      password: "third password 12",
    });
    expect(refused).toMatchObject({ ok: false, status: 401 });
    expect(await replay.query("auth.me")).toMatchObject({ ok: true, data: null });
  });

  it("stores only a hash of the session secret", async () => {
    const c = await confirmedUser(t, "hash-check@example.com");
    const token = c.cookies.get("warden_session") ?? "";
    const [id, secret] = token.split(".");
    const row = await t.prisma.session.findUniqueOrThrow({ where: { id } });
    expect(Buffer.from(row.secretHash).toString("utf8")).not.toContain(secret);
    expect(row.secretHash.length).toBe(32);
  });

  it("answers a wrong password and an unknown email with the same message", async () => {
    await confirmedUser(t, "wrong-pass@example.com");
    const c = client();
    const wrong = await c.mutate("auth.login", {
      email: "wrong-pass@example.com",
      password: "nope-nope",
    });
    const unknown = await c.mutate("auth.login", {
      email: "nobody@example.com",
      password: "nope-nope",
    });
    expect(wrong).toMatchObject({ ok: false, status: 401 });
    expect(unknown).toMatchObject({ ok: false, status: 401 });
    if (!wrong.ok && !unknown.ok) {
      expect(wrong.error.message).toBe(MESSAGES.invalidCredentials);
      expect(unknown.error.message).toBe(MESSAGES.invalidCredentials);
    }
  });

  it("rejects a password outside 8..128 characters with the field named", async () => {
    const short = await client().mutate("auth.signup", {
      email: "short@example.com",
      password: "1234567",
    });
    expect(short).toMatchObject({ ok: false, status: 400 });
    if (!short.ok) expect(short.error.data.issues?.[0]?.path).toBe("password");
    const long = await client().mutate("auth.signup", {
      email: "long@example.com",
      password: "x".repeat(129),
    });
    expect(long).toMatchObject({ ok: false, status: 400 });
  });

  it("resets a password once through the emailed link and ends every session", async () => {
    const email = "reset@example.com";
    const oldSession = await confirmedUser(t, email);
    const c = client();
    const ask = await c.mutate("auth.requestPasswordReset", { email });
    expect(ask).toMatchObject({ ok: true, data: { message: MESSAGES.resetEmailSent } });
    const link = linkIn(await t.smtp.waitFor(email, "Reset"), "/reset-password");
    expect(link.searchParams.get("type")).toBe("recovery");
    expect(link.searchParams.get("email")).toBe(email);
    const tokenHash = link.searchParams.get("tokenHash") ?? "";
    expect(tokenHash.length).toBeGreaterThanOrEqual(26); // 20 random bytes in base32 = 160 bits

    const stored = await t.prisma.emailToken.findMany({ where: { email, purpose: "recovery" } });
    expect(stored.map((row) => row.tokenHash)).not.toContain(tokenHash);

    expect(await c.mutate("auth.checkResetLink", { tokenHash, email })).toMatchObject({
      ok: true,
      data: { valid: true },
    });
    const otherEmail = await c.mutate("auth.resetPassword", {
      tokenHash,
      email: "someone-else@example.com",
      password: "brand new password",
    });
    expect(otherEmail).toMatchObject({ ok: false, status: 400 });

    const reset = await c.mutate("auth.resetPassword", {
      tokenHash,
      email,
      password: "brand new password",
    });
    expect(reset).toMatchObject({ ok: true, data: { message: MESSAGES.passwordUpdated } });
    expect(await oldSession.query("auth.me")).toMatchObject({ ok: true, data: null });

    const reused = await c.mutate("auth.resetPassword", {
      tokenHash,
      email,
      password: "yet another one",
    });
    expect(reused).toMatchObject({ ok: false, status: 400 });
    if (!reused.ok) expect(reused.error.message).toBe(MESSAGES.resetTokenFailed);
    expect(await c.mutate("auth.checkResetLink", { tokenHash, email })).toMatchObject({
      data: { valid: false },
    });

    expect((await c.mutate("auth.login", { email, password: PASSWORD })).ok).toBe(false);
    expect((await c.mutate("auth.login", { email, password: "brand new password" })).ok).toBe(true);
  });

  it("refuses an expired reset token and a token of another type", async () => {
    const email = "expiry@example.com";
    await confirmedUser(t, email);
    const c = client();
    await c.mutate("auth.requestPasswordReset", { email });
    const link = linkIn(await t.smtp.waitFor(email, "Reset"), "/reset-password");
    const tokenHash = link.searchParams.get("tokenHash") ?? "";

    t.clock.advance(61 * MINUTE);
    try {
      const late = await c.mutate("auth.resetPassword", {
        tokenHash,
        email,
        password: "too late password",
      });
      expect(late).toMatchObject({ ok: false, status: 400 });
    } finally {
      t.clock.advance(-61 * MINUTE);
    }

    // A signup-confirmation token is not a recovery token.
    await client().mutate("auth.signup", { email: "typed@example.com", password: PASSWORD });
    const confirmLink = linkIn(
      await t.smtp.waitFor("typed@example.com", "Confirm"),
      "/confirm-email",
    );
    const wrongType = await c.mutate("auth.resetPassword", {
      tokenHash: confirmLink.searchParams.get("tokenHash"),
      email: "typed@example.com",
      password: "not a reset link",
    });
    expect(wrongType).toMatchObject({ ok: false, status: 400 });
  });

  it("answers a reset request for an unknown email the same way and sends nothing", async () => {
    const before = t.smtp.messages.length;
    const ask = await client().mutate("auth.requestPasswordReset", { email: "ghost@example.com" });
    expect(ask).toMatchObject({ ok: true, data: { message: MESSAGES.resetEmailSent } });
    await new Promise((r) => setTimeout(r, 100));
    expect(t.smtp.messages.slice(before).some((m) => m.to.includes("ghost@"))).toBe(false);
  });

  it("extends a session used in the second half of its 30 days, and expires an idle one", async () => {
    const c = await confirmedUser(t, "extend@example.com");
    const token = c.cookies.get("warden_session") ?? "";
    const id = token.split(".")[0];
    const first = await t.prisma.session.findUniqueOrThrow({ where: { id } });

    t.clock.advance(16 * DAY);
    try {
      const response = await c.request("/trpc/auth.me");
      expect(response.headers.getSetCookie().join()).toContain("warden_session=");
      const extended = await t.prisma.session.findUniqueOrThrow({ where: { id } });
      expect(extended.expiresAt.getTime() - first.expiresAt.getTime()).toBeGreaterThan(15 * DAY);

      t.clock.advance(31 * DAY);
      expect(await c.query("auth.me")).toMatchObject({ ok: true, data: null });
    } finally {
      t.clock.advance(-47 * DAY);
    }
  });

  it("accepts the session token as a bearer header, from scripts and other backends", async () => {
    await confirmedUser(t, "bearer@example.com");
    const script = new TestClient(t.baseUrl, {});
    const login = await script.json<{ token: string }>("/api/auth/login", {
      body: { email: "bearer@example.com", password: PASSWORD },
    });
    expect(login.status).toBe(200);
    const auth = { authorization: `Bearer ${login.body.token}` };
    expect((await script.json("/api/me", { headers: auth })).body).toMatchObject({
      user: { email: "bearer@example.com" },
    });
    // Bearer requests are exempt from the origin check: no cookie can be forged cross-site.
    const change = await script.mutate(
      "auth.changePassword",
      { currentPassword: PASSWORD, password: PASSWORD },
      { ...auth, origin: "https://elsewhere.example" },
    );
    expect(change.ok).toBe(true);
    expect(
      (await script.json("/api/me", { headers: { authorization: "Bearer nope.nope" } })).body,
    ).toEqual({
      user: null,
    });
  });

  it("refuses a cookie-authenticated change from another origin", async () => {
    const c = await confirmedUser(t, "csrf@example.com");
    const crossOrigin = await c.mutate(
      "auth.changePassword",
      { currentPassword: PASSWORD, password: "hijacked password" },
      { origin: "https://evil.example" },
    );
    expect(crossOrigin).toMatchObject({ ok: false, status: 403 });
    const crossSite = await c.mutate(
      "auth.changePassword",
      { currentPassword: PASSWORD, password: "hijacked password" },
      { origin: "", "sec-fetch-site": "cross-site" },
    );
    expect(crossSite).toMatchObject({ ok: false, status: 403 });
    const sameOrigin = await c.mutate(
      "auth.changePassword",
      { currentPassword: PASSWORD, password: "legit new password" },
      { origin: "", "sec-fetch-site": "same-origin" },
    );
    expect(sameOrigin.ok).toBe(true);
  });

  it("locks an email for 15 minutes after 5 failed logins", async () => {
    const email = "throttle@example.com";
    await confirmedUser(t, email);
    const c = client();
    for (let i = 0; i < 5; i++) {
      expect(await c.mutate("auth.login", { email, password: "wrong password" })).toMatchObject({
        status: 401,
      });
    }
    const locked = await c.mutate("auth.login", { email, password: PASSWORD });
    expect(locked).toMatchObject({ ok: false, status: 429 });
    if (!locked.ok) expect(locked.error.message).toBe(MESSAGES.tooManyLoginFailures);

    t.clock.advance(14 * MINUTE);
    expect(await c.mutate("auth.login", { email, password: PASSWORD })).toMatchObject({
      status: 429,
    });
    t.clock.advance(2 * MINUTE);
    expect((await c.mutate("auth.login", { email, password: PASSWORD })).ok).toBe(true);
  });

  it("limits signups per IP address", async () => {
    const c = client();
    const results = [];
    for (let i = 0; i < 11; i++) {
      results.push(
        await c.mutate("auth.signup", { email: `ip${i}@example.com`, password: PASSWORD }),
      );
    }
    // Earlier tests in this file used some of the hour's allowance from this address.
    const limited = results.find((r) => !r.ok);
    expect(limited).toMatchObject({ ok: false, status: 429 });
    if (limited && !limited.ok) expect(limited.error.message).toBe(MESSAGES.tooManyRequests);
    t.clock.advance(61 * MINUTE);
  });
});
