/**
 * The audit log is append-only, on both databases: the database itself refuses to change an
 * event (Prisma's update and updateMany, raw UPDATE), to truncate the table, and to delete an
 * event still inside its account's retention (the trigger in the teams_audit_two_factor
 * migration). Deleting an account takes its log with it. And no code in server/ has a path
 * that changes or deletes events, besides housekeeping's prune.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(DB_KINDS)("audit events on %s", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  let recent = "";
  let old = "";

  beforeAll(async () => {
    t = await startTestApp(kind);
    merchant = await signedInMerchant(t, `append-only-${kind}@example.com`);
    const signIn = await t.prisma.auditEvent.findFirstOrThrow({
      where: { accountId: merchant.accountId, action: "auth.sign_in" },
    });
    recent = signIn.id;
    // One past the account's retention (365 days), by the database's own clock.
    old = crypto.randomUUID();
    await t.prisma.$executeRaw`
      INSERT INTO "AuditEvent" ("id", "accountId", "at", "actorKind", "actor", "action")
      VALUES (${old}, ${merchant.accountId}, (now() AT TIME ZONE 'UTC') - interval '400 days',
              'system', 'test', 'rules.put')`;
  });
  afterAll(async () => {
    await t?.close();
  });

  const refused = async (what: string, attempt: () => Promise<unknown>) => {
    await expect(attempt(), what).rejects.toThrow(/cannot be (changed|deleted|truncated)/);
  };
  const snapshot = () =>
    t.prisma.auditEvent.findMany({
      where: { accountId: merchant.accountId },
      orderBy: { id: "asc" },
    });

  it("refuses every change to an event, recent or old, and truncating the table", async () => {
    const before = await snapshot();
    expect(before.length).toBeGreaterThanOrEqual(3);
    for (const id of [recent, old]) {
      await refused(`update ${id}`, () =>
        t.prisma.auditEvent.update({ where: { id }, data: { actor: "someone else" } }),
      );
      await refused(
        `raw UPDATE ${id}`,
        () =>
          t.prisma.$executeRaw`UPDATE "AuditEvent" SET "after" = '{}'::jsonb WHERE "id" = ${id}`,
      );
    }
    await refused("updateMany", () =>
      t.prisma.auditEvent.updateMany({
        where: { accountId: merchant.accountId },
        data: { ip: "10.0.0.1" },
      }),
    );
    await refused("raw TRUNCATE", () => t.prisma.$executeRawUnsafe('TRUNCATE "AuditEvent"'));
    await refused("raw TRUNCATE CASCADE", () =>
      t.prisma.$executeRawUnsafe('TRUNCATE "AuditEvent" CASCADE'),
    );
    expect(await snapshot()).toEqual(before);
  });

  it("refuses to delete an event inside its retention, one way or another", async () => {
    const before = await snapshot();
    await refused("delete", () => t.prisma.auditEvent.delete({ where: { id: recent } }));
    await refused("deleteMany", () =>
      t.prisma.auditEvent.deleteMany({ where: { accountId: merchant.accountId } }),
    );
    await refused(
      "raw DELETE",
      () => t.prisma.$executeRaw`DELETE FROM "AuditEvent" WHERE "id" = ${recent}`,
    );
    // A longer retention set first does not help either: it only keeps events longer.
    await t.prisma.account.update({
      where: { id: merchant.accountId },
      data: { auditRetentionDays: 3650 },
    });
    await refused("delete of the old one, now inside a longer retention", () =>
      t.prisma.auditEvent.delete({ where: { id: old } }),
    );
    await t.prisma.account.update({
      where: { id: merchant.accountId },
      data: { auditRetentionDays: 365 },
    });
    expect(await snapshot()).toEqual(before);
  });

  it("lets an event past retention go, and an account's deletion take its whole log", async () => {
    const doomed = await signedInMerchant(t, `doomed-${kind}@example.com`);
    const count = () => t.prisma.auditEvent.count({ where: { accountId: doomed.accountId } });
    expect(await count()).toBeGreaterThan(0);
    await t.prisma.$transaction([
      t.prisma.session.deleteMany({ where: { accountId: doomed.accountId } }),
      t.prisma.user.deleteMany({ where: { accountId: doomed.accountId } }),
      t.prisma.account.delete({ where: { id: doomed.accountId } }),
    ]);
    expect(await count()).toBe(0);

    expect(await t.app.services.audit.prune()).toBe(1);
    expect(await t.prisma.auditEvent.findUnique({ where: { id: old } })).toBeNull();
    expect(await t.prisma.auditEvent.findUnique({ where: { id: recent } })).not.toBeNull();
  });
});

describe("code that touches audit events", () => {
  it("has no path that changes or deletes an event besides housekeeping's prune", async () => {
    const root = join(process.cwd(), "server");
    const files = (await readdir(root, { recursive: true }))
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .filter((file) => !file.startsWith(join("db", "generated")));
    const found: string[] = [];
    const writes =
      /auditEvent\s*\.\s*(update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\b|\b(UPDATE|DELETE\s+FROM|TRUNCATE)\s+(TABLE\s+)?"?AuditEvent"?/gi;
    for (const file of files) {
      const text = await readFile(join(root, file), "utf8");
      for (const match of text.matchAll(writes)) {
        found.push(`${relative(process.cwd(), join(root, file))}: ${match[0]}`);
      }
    }
    expect(found).toEqual(['server/modules/audit/audit.repository.ts: DELETE FROM "AuditEvent"']);
    const repository = await readFile(join(root, "modules/audit/audit.repository.ts"), "utf8");
    // ...and that one deletes only what is past its account's retention.
    expect(repository).toMatch(
      /DELETE FROM "AuditEvent"[\s\S]*?e\."at" < \(now\(\) AT TIME ZONE 'UTC'\) - make_interval\(days => a\."auditRetentionDays"\)/,
    );
  });
});
