import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCharge } from "../../../../test/fixtures/stripe.ts";
import { DB_KINDS } from "../../../../test/helpers/databases.ts";
import { signedInMerchant } from "../../../../test/helpers/merchants.ts";
import { connectStripe } from "../../../../test/helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp } from "../../../../test/helpers/test-app.ts";
import { INTERRUPTED } from "./import-jobs.repository.ts";
import { STALE_MS } from "./stripe-import.service.ts";

type Job = { id: string; status: string; imported: number };

describe.each(DB_KINDS)("importing past charges on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
    const nowSec = Math.floor(t.clock.now().getTime() / 1000);
    for (let i = 0; i < 30; i++) {
      const charge = buildCharge({ created: nowSec - i * 3600 });
      t.stripe.charges.set(charge.id, charge);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it("an import left running by a process that died does not block the next one", async () => {
    const merchant = await signedInMerchant(t, `import-dead-${kind}@example.com`);
    await connectStripe(merchant);
    const dead = await t.prisma.importJob.create({
      data: {
        accountId: merchant.accountId,
        days: 90,
        heartbeatAt: new Date(t.clock.now().getTime() - STALE_MS - 1000),
        startedAt: new Date(t.clock.now().getTime() - 3600_000),
      },
    });
    const started = await merchant.api.mutate<Job>("stripe.startImport", { days: 90 });
    expect(started).toMatchObject({ ok: true, data: { status: "running" } });
    expect(started.ok && started.data.id).not.toBe(dead.id);
    await expect
      .poll(async () => await merchant.api.query<Job>("stripe.importStatus"), { timeout: 20_000 })
      .toMatchObject({ data: { status: "done", imported: 30 } });
    expect(await t.prisma.importJob.findUniqueOrThrow({ where: { id: dead.id } })).toMatchObject({
      status: "failed",
      error: INTERRUPTED,
    });
  });

  it("a live import is not restarted, and two clicks at once start one import", async () => {
    const merchant = await signedInMerchant(t, `import-twice-${kind}@example.com`);
    await connectStripe(merchant);
    // A slow first page keeps the first import running while the other clicks arrive.
    t.stripe.setFault((call) => (call.path === "/v1/charges" ? { delayMs: 1500 } : null));
    const clicks = await Promise.all(
      Array.from({ length: 4 }, () => merchant.api.mutate<Job>("stripe.startImport", { days: 90 })),
    );
    const ids = new Set(clicks.map((c) => (c.ok ? c.data.id : JSON.stringify(c))));
    expect([...ids].join(" | ")).not.toContain(" | ");
    t.stripe.setFault(() => null);
    await expect
      .poll(async () => await merchant.api.query<Job>("stripe.importStatus"), { timeout: 20_000 })
      .toMatchObject({ data: { status: "done", imported: 30 } });
    expect(await t.prisma.importJob.count({ where: { accountId: merchant.accountId } })).toBe(1);
  });
});
