/**
 * Bulk labels and GET /api/v1/screenings over real HTTP on both databases: a select-and-label
 * is one batch (console tRPC labels.bulk, POST /api/v1/labels/bulk) that one undo removes, the
 * earlier labels current again and the flagged marks following; at most 500 ids; another
 * account's ids are not labelled and read as not found; two at once stay consistent; both are
 * in the audit log. The screenings list for scripts filters, pages and sees only its account.
 */
import { describe, expect, it } from "vitest";
import type { BulkLabelResult, LabelUndoResult } from "../../shared/schemas/bulk-labels.ts";
import type { ScreeningsApiPage } from "../../shared/schemas/screenings-api.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf } from "../helpers/screening.ts";
import { type TestApp, testClock } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

describe.each(DB_KINDS)("bulk labels and the screenings API (%s)", (kind) => {
  let t: TestApp;
  const clock = testClock(Date.parse("2026-11-20T10:00:00Z"));
  withTestApp(kind, { clock }, (app) => {
    t = app;
  });

  async function merchantWith(name: string, screenings: number) {
    const merchant = await signedInMerchant(t, `${name}-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    const ids: string[] = [];
    for (let i = 0; i < screenings; i++) {
      const answer = await backend.decide({
        type: i % 2 ? "login" : "signup",
        user_id: `${name}-u${i}`,
        email: `${name}-${i}@example.com`,
        ip: "203.0.113.7",
      });
      ids.push(answer.id);
      clock.advance(1000);
    }
    return { merchant, backend, ids };
  }

  /** Each screening's current label (null: none), as the label history reads it. */
  async function current(merchant: Merchant, ids: string[]) {
    return Promise.all(
      ids.map(async (id) => {
        const history = await merchant.browser.query<{ label: string }[]>("labels.history", {
          subject_kind: "screening",
          subject_id: id,
        });
        expect(history.ok).toBe(true);
        return history.ok ? (history.data[0]?.label ?? null) : "error";
      }),
    );
  }

  const bulk = (merchant: Merchant, ids: string[], label: "fraud" | "legitimate") =>
    merchant.browser.mutate<BulkLabelResult>("labels.bulk", {
      subject_kind: "screening",
      subject_ids: ids,
      label,
    });

  it("labels a selection as one batch, and one undo makes the earlier labels current again", async () => {
    const { merchant, ids } = await merchantWith("bulk", 4);
    const [a, b, c, d] = ids as [string, string, string, string];
    // b was labelled legitimate one at a time before the bulk label.
    const single = await merchant.browser.mutate("labels.add", {
      subject_kind: "screening",
      subject_id: b,
      label: "legitimate",
    });
    expect(single.ok).toBe(true);
    clock.advance(1000);

    const done = await bulk(merchant, [a, b, c], "fraud");
    expect(done.ok, JSON.stringify(done)).toBe(true);
    if (!done.ok) return;
    expect(done.data).toMatchObject({ label: "fraud", labelled: 3, not_found: [] });
    expect(done.data.batch_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await current(merchant, ids)).toEqual(["fraud", "fraud", "fraud", null]);
    const flagged = async (id: string) =>
      (await t.prisma.screeningIdentity.findMany({ where: { screeningId: id } })).map(
        (row) => row.flagged,
      );
    expect(await flagged(a)).toContain(true);
    expect(await flagged(a)).not.toContain(false);

    clock.advance(1000);
    const undone = await merchant.browser.mutate<LabelUndoResult>("labels.undo", {
      batch_id: done.data.batch_id,
    });
    expect(undone).toMatchObject({ ok: true, data: { removed: 3 } });
    expect(await current(merchant, ids)).toEqual([null, "legitimate", null, null]);
    expect(await flagged(a)).not.toContain(true);
    expect(await t.prisma.label.count({ where: { batchId: done.data.batch_id } })).toBe(0);
    // Undone once: a second undo finds nothing.
    const again = await merchant.browser.mutate("labels.undo", { batch_id: done.data.batch_id });
    expect(again).toMatchObject({ ok: false, status: 404 });
    void d;

    const audit = await t.prisma.auditEvent.findMany({
      where: { accountId: merchant.accountId, action: { in: ["labels.bulk", "labels.undo"] } },
      orderBy: { at: "asc" },
    });
    expect(audit.map((e) => e.action)).toEqual(["labels.bulk", "labels.undo"]);
    expect(audit[1]?.target).toBe(done.data.batch_id);
  });

  it("refuses more than 500 ids, a repeated id and a bad label with the field and reason", async () => {
    const { merchant, backend, ids } = await merchantWith("limits", 1);
    const many = Array.from({ length: 501 }, (_, i) => `id-${i}`);
    const tooMany = await backend.client.json<{ error: unknown }>("/api/v1/labels/bulk", {
      body: { subject_kind: "screening", subject_ids: many, label: "fraud" },
    });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain("subject_ids");
    expect(JSON.stringify(tooMany.body)).toContain("at most 500");
    const twice = await bulk(merchant, [ids[0] ?? "", ids[0] ?? ""], "fraud");
    expect(twice).toMatchObject({ ok: false, status: 400 });
    expect(JSON.stringify(twice)).toContain("must not name an id twice");
    const badLabel = await backend.client.json("/api/v1/labels/bulk", {
      body: { subject_kind: "screening", subject_ids: ids, label: "maybe" },
    });
    expect(badLabel.status).toBe(400);
    expect(JSON.stringify(badLabel.body)).toContain("label");
    const empty = await backend.client.json("/api/v1/labels/bulk", {
      body: { subject_kind: "screening", subject_ids: [], label: "fraud" },
    });
    expect(empty.status).toBe(400);
    const badBatch = await backend.client.json("/api/v1/labels/batches/nope", { method: "DELETE" });
    expect(badBatch.status).toBe(400);
    expect(JSON.stringify(badBatch.body)).toContain("batch_id");
    expect(await t.prisma.label.count({ where: { accountId: merchant.accountId } })).toBe(0);
  });

  it("labels none of another account's ids, reads them as not found, and undoes only its own batches", async () => {
    const mine = await merchantWith("iso-mine", 2);
    const theirs = await merchantWith("iso-theirs", 2);
    const res = await mine.backend.client.json<BulkLabelResult>("/api/v1/labels/bulk", {
      body: {
        subject_kind: "screening",
        subject_ids: [...mine.ids, ...theirs.ids, "no-such-id"],
        label: "legitimate",
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.labelled).toBe(2);
    expect(res.body.not_found.sort()).toEqual([...theirs.ids, "no-such-id"].sort());
    expect(await t.prisma.label.count({ where: { accountId: theirs.merchant.accountId } })).toBe(0);
    expect(await t.prisma.label.count({ where: { subjectId: { in: theirs.ids } } })).toBe(0);
    // Only another account's: nothing labelled, no batch.
    const none = await bulk(mine.merchant, theirs.ids, "fraud");
    expect(none).toMatchObject({ ok: true, data: { labelled: 0, batch_id: null } });

    // The other account cannot undo this batch; the owner can, over REST.
    const foreign = await theirs.backend.client.json(
      `/api/v1/labels/batches/${res.body.batch_id}`,
      { method: "DELETE" },
    );
    expect(foreign.status).toBe(404);
    const undone = await mine.backend.client.json<LabelUndoResult>(
      `/api/v1/labels/batches/${res.body.batch_id}`,
      { method: "DELETE" },
    );
    expect(undone).toMatchObject({ status: 200, body: { removed: 2 } });
    const audit = await t.prisma.auditEvent.findMany({
      where: { accountId: mine.merchant.accountId, action: { startsWith: "labelsApi." } },
    });
    expect(audit.map((e) => e.action).sort()).toEqual(["labelsApi.bulk", "labelsApi.undo"]);
  });

  it("keeps two bulk labels at once consistent: one batch wins on every subject, marks agree", async () => {
    const { merchant, ids } = await merchantWith("race", 6);
    const [fraud, legit] = await Promise.all([
      bulk(merchant, ids, "fraud"),
      bulk(merchant, [...ids].reverse(), "legitimate"),
    ]);
    expect(fraud.ok && legit.ok, JSON.stringify([fraud, legit])).toBe(true);
    const labels = await current(merchant, ids);
    // One ran after the other: every subject carries the later batch's label.
    expect(new Set(labels).size).toBe(1);
    const rows = await t.prisma.screeningIdentity.findMany({ where: { screeningId: { in: ids } } });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.flagged).toBe(labels[0] === "fraud");
    expect(await t.prisma.label.count({ where: { accountId: merchant.accountId } })).toBe(12);
  });

  async function page(backend: Backend, query: string) {
    const res = await backend.client.json<ScreeningsApiPage>(`/api/v1/screenings${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  it("lists screenings for scripts: filters, newest first, a cursor, its own account only", async () => {
    const { merchant, backend, ids } = await merchantWith("list", 5);
    const other = await merchantWith("list-other", 2);
    const done = await bulk(merchant, [ids[0] ?? "", ids[1] ?? ""], "fraud");
    expect(done.ok).toBe(true);

    const all = await page(backend, "");
    expect(all.items.map((s) => s.id)).toEqual([...ids].reverse());
    expect(all.next_cursor).toBeNull();
    expect(all.items.find((s) => s.id === ids[0])?.label).toBe("fraud");
    expect(all.items.find((s) => s.id === ids[4])?.label).toBeNull();

    const first = await page(backend, "?limit=2");
    expect(first.items.map((s) => s.id)).toEqual([ids[4], ids[3]]);
    const second = await page(backend, `?limit=2&cursor=${first.next_cursor}`);
    expect(second.items.map((s) => s.id)).toEqual([ids[2], ids[1]]);
    const third = await page(backend, `?limit=2&cursor=${second.next_cursor}`);
    expect(third.items.map((s) => s.id)).toEqual([ids[0]]);
    expect(third.next_cursor).toBeNull();

    expect((await page(backend, "?labelled=true")).items.map((s) => s.id)).toEqual([
      ids[1],
      ids[0],
    ]);
    expect((await page(backend, "?labelled=false")).items).toHaveLength(3);
    expect((await page(backend, "?label=fraud")).items).toHaveLength(2);
    expect((await page(backend, "?label=legitimate")).items).toHaveLength(0);
    expect((await page(backend, "?type=login")).items.map((s) => s.id)).toEqual([ids[3], ids[1]]);
    expect((await page(backend, "?email=LIST-2@example.com")).items.map((s) => s.id)).toEqual([
      ids[2],
    ]);
    const decision = all.items[0]?.decision ?? "allow";
    expect((await page(backend, `?decision=${decision}`)).items.length).toBeGreaterThan(0);
    // Screened a second apart: from is inclusive, to exclusive.
    const at = (id: string | undefined) => all.items.find((s) => s.id === id)?.created_at ?? "";
    const times = (await page(backend, `?from=${at(ids[1])}&to=${at(ids[3])}`)).items;
    expect(times.map((s) => s.id)).toEqual([ids[2], ids[1]]);
    expect((await page(backend, "?from=2099-01-01")).items).toHaveLength(0);
    expect((await page(backend, `?to=${at(ids[0]).slice(0, 10)}`)).items).toHaveLength(5);

    // Another account's screenings never show, whatever the filter.
    const theirs = await page(other.backend, "");
    expect(theirs.items.map((s) => s.id)).toEqual([...other.ids].reverse());
    expect((await page(other.backend, "?email=list-2@example.com")).items).toHaveLength(0);

    for (const [query, field] of [
      ["?limit=0", "limit"],
      ["?limit=201", "limit"],
      ["?decision=maybe", "decision"],
      ["?labelled=yes", "labelled"],
      ["?from=yesterday", "from"],
      ["?from=2026-11-21&to=2026-11-20", "to"],
      ["?cursor=bm9wZQ", "cursor"],
      ["?colour=red", "colour"],
    ] as const) {
      const bad = await backend.client.json(`/api/v1/screenings${query}`);
      expect(bad.status, query).toBe(400);
      expect(JSON.stringify(bad.body), query).toContain(field);
    }
    expect((await new TestClient(t.baseUrl).json("/api/v1/screenings")).status).toBe(401);
    // A console session is not an API key.
    expect((await merchant.api.json("/api/v1/screenings")).status).toBe(401);
  });
});
