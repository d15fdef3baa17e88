import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS } from "../test/helpers/databases.ts";
import { signedInMerchant } from "../test/helpers/merchants.ts";
import { startTestApp, type TestApp } from "../test/helpers/test-app.ts";

const DAY = 24 * 60 * 60 * 1000;

describe.each(DB_KINDS)("housekeeping on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("removes expired sessions, tokens and stale counters, and keeps live ones", async () => {
    const old = await signedInMerchant(t, `old-${kind}@example.com`);
    await old.browser.mutate("auth.requestPasswordReset", { email: old.email });
    const before = {
      sessions: await t.prisma.session.count({ where: { user: { email: old.email } } }),
      tokens: await t.prisma.emailToken.count({ where: { email: old.email } }),
    };
    expect(before.sessions).toBeGreaterThan(0);
    expect(before.tokens).toBe(2); // the spent confirmation and the reset link
    expect(
      await t.prisma.rateLimit.findUnique({ where: { key: `forgot-email:${old.email}` } }),
    ).not.toBeNull();

    t.clock.advance(31 * DAY);
    try {
      const fresh = await signedInMerchant(t, `fresh-${kind}@example.com`);
      const removed = await t.app.services.housekeeping.purgeExpired();
      expect(removed.sessions).toBeGreaterThanOrEqual(before.sessions);
      expect(removed.tokens).toBeGreaterThanOrEqual(before.tokens);
      // The old reset request's counter is stale; the per-IP ones restarted with the new signup.
      expect(removed.rateLimits).toBeGreaterThanOrEqual(1);
      expect(
        await t.prisma.rateLimit.findUnique({ where: { key: `forgot-email:${old.email}` } }),
      ).toBeNull();
      expect(await t.prisma.session.count({ where: { user: { email: old.email } } })).toBe(0);
      expect(await t.prisma.emailToken.count({ where: { email: old.email } })).toBe(0);
      // What is still live stays: the new merchant's session and its recent counters.
      expect(await fresh.browser.query("auth.me")).toMatchObject({
        ok: true,
        data: { email: fresh.email },
      });
      expect(await t.prisma.rateLimit.count()).toBeGreaterThan(0);
    } finally {
      t.clock.advance(-31 * DAY);
    }
  });
});
