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

  it("deletes audit events past each account's retention, and keeps the rest", async () => {
    const a = await signedInMerchant(t, `audit-a-${kind}@example.com`);
    const b = await signedInMerchant(t, `audit-b-${kind}@example.com`);
    /** An event `days` old by the database's clock, as retention is measured. */
    const event = async (accountId: string, days: number) => {
      const id = crypto.randomUUID();
      await t.prisma.$executeRaw`
        INSERT INTO "AuditEvent" ("id", "accountId", "at", "actorKind", "actor", "action")
        VALUES (${id}, ${accountId}, (now() AT TIME ZONE 'UTC') - make_interval(days => ${days}),
                'system', 'test', 'rules.put')`;
      return id;
    };
    const kept = async (ids: string[]) =>
      (await t.prisma.auditEvent.findMany({ where: { id: { in: ids } }, select: { id: true } }))
        .map((row) => row.id)
        .sort();
    const aOld = [await event(a.accountId, 400), await event(a.accountId, 366)];
    const aMonths = await event(a.accountId, 100);
    const aRecent = await event(a.accountId, 1);
    const bOld = await event(b.accountId, 400);
    const bMonths = await event(b.accountId, 100);
    // More than one of prune's batches (1,000 at a time): every one of them goes.
    await t.prisma.$executeRaw`
      INSERT INTO "AuditEvent" ("id", "accountId", "at", "actorKind", "actor", "action")
      SELECT gen_random_uuid()::text, ${b.accountId},
             (now() AT TIME ZONE 'UTC') - interval '500 days' + make_interval(secs => n),
             'system', 'test', 'rules.put'
      FROM generate_series(1, 2345) AS n`;

    const first = await t.app.services.housekeeping.purgeExpired();
    expect(first.auditEvents).toBe(3 + 2345);
    expect(await kept([...aOld, aMonths, aRecent, bOld, bMonths])).toEqual(
      [aMonths, aRecent, bMonths].sort(),
    );
    // The sign-ins signedInMerchant wrote are today's: kept.
    expect(await t.prisma.auditEvent.count({ where: { accountId: a.accountId } })).toBe(4);

    // A's owner keeps 30 days from now on: A's 100-day-old event goes, B's (365 days) stays.
    await t.prisma.account.update({
      where: { id: a.accountId },
      data: { auditRetentionDays: 30 },
    });
    const second = await t.app.services.housekeeping.purgeExpired();
    expect(second.auditEvents).toBe(1);
    expect(await kept([aMonths, aRecent, bMonths])).toEqual([aRecent, bMonths].sort());
    expect((await t.app.services.housekeeping.purgeExpired()).auditEvents).toBe(0);
  });
});
