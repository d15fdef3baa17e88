/** Signup, reset and change-password paths someone else could use to take an account. */
import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../../shared/messages.ts";
import { confirmedUser } from "../../../test/helpers/confirmed-user.ts";
import { DB_KINDS } from "../../../test/helpers/databases.ts";
import { TestClient } from "../../../test/helpers/http-client.ts";
import { linkIn } from "../../../test/helpers/smtp.ts";
import type { TestApp } from "../../../test/helpers/test-app.ts";
import { withTestApp } from "../../../test/with-test-app.ts";

const PASSWORD = "correct horse battery";

describe.each(DB_KINDS)("account takeover defences on %s", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  const client = () => new TestClient(t.baseUrl);

  it("gives an unconfirmed email the password of its latest signup and kills earlier links (pre-hijacking)", async () => {
    const email = "pre-hijack@example.com";
    const attacker = await client().mutate("auth.signup", { email, password: "attacker password" });
    expect(attacker.ok).toBe(true);
    const attackerLink = linkIn(await t.smtp.waitFor(email, "Confirm"), "/confirm-email");
    const before = t.smtp.messages.length;

    const owner = await client().mutate("auth.signup", { email, password: PASSWORD });
    expect(owner).toMatchObject({ ok: true, data: { message: MESSAGES.signupSuccess } });
    await expect.poll(() => t.smtp.messages.length).toBeGreaterThan(before);
    const ownerLink = linkIn(await t.smtp.waitFor(email, "Confirm"), "/confirm-email");
    expect(ownerLink.searchParams.get("tokenHash")).not.toBe(
      attackerLink.searchParams.get("tokenHash"),
    );

    const stale = await client().mutate("auth.confirmEmail", {
      tokenHash: attackerLink.searchParams.get("tokenHash"),
      email,
    });
    expect(stale).toMatchObject({ ok: false, status: 400 });
    const confirmed = await client().mutate("auth.confirmEmail", {
      tokenHash: ownerLink.searchParams.get("tokenHash"),
      email,
    });
    expect(confirmed.ok).toBe(true);
    expect(
      await client().mutate("auth.login", { email, password: "attacker password" }),
    ).toMatchObject({
      ok: false,
      status: 401,
    });
    expect((await client().mutate("auth.login", { email, password: PASSWORD })).ok).toBe(true);

    // Once confirmed, a signup changes nothing and tells the owner instead.
    await client().mutate("auth.signup", { email, password: "attacker password" });
    await t.smtp.waitFor(email, "You already have a Warden account");
    expect((await client().mutate("auth.login", { email, password: PASSWORD })).ok).toBe(true);
  });

  it("ends every other reset link of the user when one is used", async () => {
    const email = "two-links@example.com";
    await confirmedUser(t, email);
    const c = client();
    const links: string[] = [];
    for (let i = 0; i < 2; i++) {
      const before = t.smtp.messages.length;
      await c.mutate("auth.requestPasswordReset", { email });
      await expect.poll(() => t.smtp.messages.length).toBeGreaterThan(before);
      const link = linkIn(await t.smtp.waitFor(email, "Reset"), "/reset-password");
      links.push(link.searchParams.get("tokenHash") ?? "");
    }
    expect(new Set(links).size).toBe(2);
    const [first = "", second = ""] = links;
    expect(
      await c.mutate("auth.resetPassword", {
        tokenHash: second,
        email,
        password: "chosen password 1",
      }),
    ).toMatchObject({ ok: true });
    expect(await c.mutate("auth.checkResetLink", { tokenHash: first, email })).toMatchObject({
      data: { valid: false },
    });
    expect(
      await c.mutate("auth.resetPassword", {
        tokenHash: first,
        email,
        password: "attacker password",
      }),
    ).toMatchObject({ ok: false, status: 400 });
    expect((await c.mutate("auth.login", { email, password: "chosen password 1" })).ok).toBe(true);
  });

  it("changes the password only with the current one, and tells the owner by email", async () => {
    const email = "change-needs-current@example.com";
    const c = await confirmedUser(t, email);
    const wrong = await c.mutate("auth.changePassword", {
      currentPassword: "not the password",
      password: "stolen session pw",
    });
    expect(wrong).toMatchObject({ ok: false, status: 400 });
    if (!wrong.ok) {
      expect(wrong.error.message).toBe(MESSAGES.currentPasswordWrong);
      expect(wrong.error.data.issues?.[0]?.path).toBe("currentPassword");
    }
    const missing = await c.mutate("auth.changePassword", { password: "stolen session pw" });
    expect(missing).toMatchObject({ ok: false, status: 400 });
    expect((await client().mutate("auth.login", { email, password: PASSWORD })).ok).toBe(true);

    const changed = await c.mutate("auth.changePassword", {
      currentPassword: PASSWORD,
      password: "fresh password 22",
    });
    expect(changed).toMatchObject({ ok: true, data: { message: MESSAGES.passwordUpdated } });
    const notice = await t.smtp.waitFor(email, "Your Warden password was changed");
    expect(notice.text).toContain(`${t.config.publicUrl}/forgot-password`);
    expect((await client().mutate("auth.login", { email, password: "fresh password 22" })).ok).toBe(
      true,
    );
  });
});
