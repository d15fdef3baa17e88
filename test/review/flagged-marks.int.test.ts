/**
 * The flagged mark on a screening's counting rows (decision 023), over real HTTP on the
 * embedded database and on PostgreSQL: set when the screening is denied in review (one, in
 * bulk, by the console or the API) or labelled fraud, cleared when it is labelled legitimate,
 * in the transaction of the decision or label; and rebuilt the same by the migration's backfill.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { type TestApp, testClock } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

const BOT = "python-requests/2.31";
const MIGRATION = "../../prisma/migrations/20261126164525_linked_accounts/migration.sql";

describe.each(DB_KINDS)("flagged marks (%s)", (kind) => {
  let t: TestApp;
  const clock = testClock(Date.parse("2026-11-20T10:00:00Z"));
  withTestApp(kind, { clock }, (app) => {
    t = app;
  });

  let n = 0;
  async function merchantWithReviews(name: string) {
    const merchant = await signedInMerchant(t, `${name}-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    return { merchant, backend };
  }

  /** A bot request with a device, a card and an IP (several counting rows): answered review. */
  async function review(backend: Backend) {
    n++;
    const answer = await backend.decide({
      type: "request",
      user_agent: BOT,
      user_id: `u${n}`,
      device_id: `dev-${n}`,
      card_fingerprint: `fp_${n}`,
      ip: `198.51.100.${n}`,
    });
    expect(answer.decision).toBe("review");
    clock.advance(1000);
    return answer.id;
  }

  /** Each screening's counting rows' marks (every row of one screening carries the same). */
  async function marks(ids: string[]): Promise<(boolean | "mixed" | "none")[]> {
    const rows = await t.prisma.screeningIdentity.findMany({
      where: { screeningId: { in: ids } },
      select: { screeningId: true, flagged: true },
    });
    return ids.map((id) => {
      const its = new Set(rows.filter((r) => r.screeningId === id).map((r) => r.flagged));
      if (its.size === 0) return "none";
      return its.size === 1 ? [...its][0] === true : "mixed";
    });
  }

  // Each verdict a second after the one before, as people give them: the backfill orders
  // labels and reviews by their time, and two on one test-clock instant tie (then a label's
  // random id decided which was newest, and the rebuilt marks differed now and then).
  const settle = (merchant: Merchant, id: string, decision: "approve" | "deny") => {
    clock.advance(1000);
    return merchant.browser.mutate("review.settle", { id, decision });
  };
  const label = (merchant: Merchant, id: string, value: "fraud" | "legitimate") => {
    clock.advance(1000);
    return merchant.browser.mutate("labels.add", {
      subject_kind: "screening",
      subject_id: id,
      label: value,
    });
  };

  it("marks a screening denied in the console, not one approved, and no other", async () => {
    const { merchant, backend } = await merchantWithReviews("console");
    const [denied, approved, open] = [
      await review(backend),
      await review(backend),
      await review(backend),
    ];
    expect(await marks([denied, approved, open])).toEqual([false, false, false]);
    expect(await settle(merchant, denied, "deny")).toMatchObject({ ok: true });
    expect(await settle(merchant, approved, "approve")).toMatchObject({ ok: true });
    expect(await marks([denied, approved, open])).toEqual([true, false, false]);
    expect(
      await t.prisma.screeningIdentity.count({ where: { screeningId: denied } }),
    ).toBeGreaterThan(2);
  });

  it("marks what the API denies, and every screening a bulk deny settles", async () => {
    const { merchant, backend } = await merchantWithReviews("bulk");
    const byApi = await review(backend);
    const swept = [await review(backend), await review(backend), await review(backend)];
    const decided = await backend.client.json(`/api/v1/screenings/${byApi}/decision`, {
      body: { decision: "deny", note: "bot" },
    });
    expect(decided.status).toBe(200);
    const bulk = await merchant.browser.mutate("review.bulk", { filters: {}, decision: "deny" });
    expect(bulk).toMatchObject({ ok: true, data: { settled: 3 } });
    expect(await marks([byApi, ...swept])).toEqual([true, true, true, true]);
  });

  it("a bulk approve marks nothing", async () => {
    const { merchant, backend } = await merchantWithReviews("bulk-approve");
    const ids = [await review(backend), await review(backend)];
    const bulk = await merchant.browser.mutate("review.bulk", { filters: {}, decision: "approve" });
    expect(bulk).toMatchObject({ ok: true, data: { settled: 2 } });
    expect(await marks(ids)).toEqual([false, false]);
  });

  it("follows the newest label: fraud marks, legitimate clears, by the console or the API", async () => {
    const { merchant, backend } = await merchantWithReviews("labels");
    const { id } = await backend.decide({
      type: "signup",
      email: "someone@example.com",
      device_id: "dev-label",
      ip: "198.51.100.77",
    });
    expect(await label(merchant, id, "fraud")).toMatchObject({ ok: true });
    expect(await marks([id])).toEqual([true]);
    expect(await label(merchant, id, "legitimate")).toMatchObject({ ok: true });
    expect(await marks([id])).toEqual([false]);
    clock.advance(1000);
    const byApi = await backend.client.json("/api/v1/labels", {
      body: { subject_kind: "screening", subject_id: id, label: "fraud" },
    });
    expect(byApi.status).toBe(200);
    expect(await marks([id])).toEqual([true]);
  });

  it("a denied screening relabelled legitimate is cleared; approving one labelled fraud keeps it", async () => {
    const { merchant, backend } = await merchantWithReviews("relabel");
    const [denied, fraud] = [await review(backend), await review(backend)];
    expect(await settle(merchant, denied, "deny")).toMatchObject({ ok: true });
    expect(await label(merchant, denied, "legitimate")).toMatchObject({ ok: true });
    expect(await label(merchant, fraud, "fraud")).toMatchObject({ ok: true });
    expect(await settle(merchant, fraud, "approve")).toMatchObject({ ok: true });
    expect(await marks([denied, fraud])).toEqual([false, true]);
  });

  it("stores neither the deny nor the label when the mark cannot be written", async () => {
    const { merchant, backend } = await merchantWithReviews("atomic");
    const id = await review(backend);
    // A trigger that refuses to mark: the decision's transaction must fail whole.
    await t.prisma.$executeRawUnsafe(`
      CREATE FUNCTION refuse_mark() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'no marks today'; END $$`);
    await t.prisma.$executeRawUnsafe(`
      CREATE TRIGGER refuse_mark BEFORE UPDATE OF "flagged" ON "ScreeningIdentity"
      FOR EACH ROW EXECUTE FUNCTION refuse_mark()`);
    try {
      expect(await settle(merchant, id, "deny")).toMatchObject({ ok: false, status: 500 });
      expect(await label(merchant, id, "fraud")).toMatchObject({ ok: false, status: 500 });
    } finally {
      await t.prisma.$executeRawUnsafe(`DROP TRIGGER refuse_mark ON "ScreeningIdentity"`);
      await t.prisma.$executeRawUnsafe("DROP FUNCTION refuse_mark()");
    }
    const stored = await t.prisma.screening.findUniqueOrThrow({ where: { id } });
    expect(stored.reviewStatus).toBeNull();
    expect(await t.prisma.label.count({ where: { subjectId: id } })).toBe(0);
    expect(await marks([id])).toEqual([false]);
    // And once it can be written, the same deny goes through and marks.
    expect(await settle(merchant, id, "deny")).toMatchObject({ ok: true });
    expect(await marks([id])).toEqual([true]);
  });

  it("is rebuilt the same by the migration's backfill", async () => {
    // Everything the tests above decided, in every account of this database.
    const before = await t.prisma.screeningIdentity.findMany({
      select: { id: true, flagged: true },
      orderBy: { id: "asc" },
    });
    expect(before.filter((row) => row.flagged).length).toBeGreaterThan(10);
    expect(before.filter((row) => !row.flagged).length).toBeGreaterThan(10);
    const migration = await readFile(join(import.meta.dirname, MIGRATION), "utf8");
    const backfill = migration.slice(migration.indexOf("-- Backfill"));
    await t.prisma.$executeRawUnsafe(`UPDATE "ScreeningIdentity" SET "flagged" = false`);
    await t.prisma.$executeRawUnsafe(backfill.replace(/;\s*$/, ""));
    const after = await t.prisma.screeningIdentity.findMany({
      select: { id: true, flagged: true },
      orderBy: { id: "asc" },
    });
    expect(after).toEqual(before);
  });
});
