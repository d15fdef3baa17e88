/**
 * Account emails leave through the durable outbox: the request only records them, the worker
 * sends them over real SMTP, and a refused or slow SMTP server changes nothing for the caller.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../shared/messages.ts";
import { DB_KINDS } from "./helpers/databases.ts";
import { TestClient } from "./helpers/http-client.ts";
import { signedInMerchant } from "./helpers/merchants.ts";
import { startTestApp, type TestApp } from "./helpers/test-app.ts";

describe.each(DB_KINDS)("email outbox on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    t.smtp.faults.delayMs = 0;
    await t?.close();
  });

  async function timedReset(email: string) {
    const started = performance.now();
    const answer = await new TestClient(t.baseUrl).mutate("auth.requestPasswordReset", { email });
    return { answer, ms: performance.now() - started };
  }

  it("answers a reset request without waiting for a slow SMTP server, for known and unknown emails alike", async () => {
    const email = "slow-smtp@example.com";
    await signedInMerchant(t, email);
    t.smtp.faults.delayMs = 3000;
    try {
      const known = await timedReset(email);
      const unknown = await timedReset("nobody-here@example.com");
      expect(known.answer).toMatchObject({ ok: true, data: { message: MESSAGES.resetEmailSent } });
      expect(unknown.answer).toEqual(known.answer);
      // SMTP takes 3 s per message; the request must not include it.
      expect(known.ms).toBeLessThan(1000);
      expect(unknown.ms).toBeLessThan(1000);
      const mail = await t.smtp.waitFor(email, "Reset your Warden password", 10_000);
      expect(mail.text).toContain("/reset-password?");
    } finally {
      t.smtp.faults.delayMs = 0;
    }
  });

  it("keeps an email the SMTP server refused and sends it on a later try; a sent email leaves the table", async () => {
    const email = "refused-once@example.com";
    t.smtp.faults.refuseNext = 1;
    const signup = await new TestClient(t.baseUrl).mutate("auth.signup", {
      email,
      password: "correct horse battery",
    });
    expect(signup.ok).toBe(true);
    await expect
      .poll(() => t.prisma.outboxEmail.findFirst({ where: { to: email } }))
      .toMatchObject({
        attempts: 1,
        failedAt: null,
      });
    const queued = await t.prisma.outboxEmail.findFirstOrThrow({ where: { to: email } });
    expect(queued.lastError).toMatch(/451|try again/);
    t.clock.advance(60_000);
    await t.app.services.outbox.flush();
    const mail = await t.smtp.waitFor(email, "Confirm your Warden account");
    expect(mail.text).toContain("/confirm-email?");
    expect(await t.prisma.outboxEmail.count({ where: { to: email } })).toBe(0);
  });

  it("sends what was queued before a restart", async () => {
    const email = "queued-before-restart@example.com";
    await t.app.services.outbox.stop(); // the first process is gone

    await t.prisma.outboxEmail.create({
      data: { to: email, subject: "Left in the outbox", text: "queued by an earlier process" },
    });
    const restarted = await startTestApp(kind, { database: t.database });
    try {
      const mail = await restarted.smtp.waitFor(email, "Left in the outbox");
      expect(mail.text).toContain("queued by an earlier process");
    } finally {
      await restarted.close();
    }
  });
});
