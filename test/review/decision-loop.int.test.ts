/**
 * The decision loop over real HTTP, on the embedded database and on PostgreSQL: the review
 * queue (oldest first, shared identities, filters, settle once, bulk), labels as history (the
 * console, POST /api/v1/labels, Stripe's fraud disputes and early fraud warnings), and the
 * screenings API for a merchant's backend. Every read is scoped to the caller's account.
 */
import { describe, expect, it } from "vitest";
import type { LabelView } from "../../shared/schemas/labels.ts";
import type {
  ChargeReviewDetail,
  ReviewItem,
  ScreeningDetail,
} from "../../shared/schemas/review.ts";
import {
  buildCharge,
  buildDispute,
  buildEarlyFraudWarning,
  buildEvent,
} from "../fixtures/stripe.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import { type TestApp, testClock } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";
import { reviewHighRiskCharges } from "./setup.ts";

const BOT = "python-requests/2.31";
const HOUR = 3_600_000;
const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15";

type Page = { items: ReviewItem[]; nextCursor: string | null };

describe.each(DB_KINDS)("decision loop (%s)", (kind) => {
  let t: TestApp;
  const clock = testClock(Date.parse("2026-11-20T10:00:00Z"));
  withTestApp(kind, { clock }, (app) => {
    t = app;
  });

  async function reviewingMerchant(name: string) {
    const merchant = await signedInMerchant(t, `${name}-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    return { merchant, backend };
  }

  /** A bot request: rule_scraping answers review. */
  async function review(backend: Backend, extra: Record<string, string> = {}) {
    const answer = await backend.decide({ type: "request", user_agent: BOT, ...extra });
    expect(answer.decision).toBe("review");
    clock.advance(60_000);
    return answer.id;
  }

  const queue = async (merchant: Merchant, input: Record<string, unknown> = {}) => {
    const res = await merchant.browser.query<Page>("review.queue", input);
    expect(res, JSON.stringify(res)).toMatchObject({ ok: true });
    return (res as { data: Page }).data;
  };

  it("lists open reviews oldest first, with what they share with earlier events", async () => {
    const { merchant, backend } = await reviewingMerchant("queue");
    const first = await review(backend, { device_id: "dev-shared", user_id: "u1" });
    const second = await review(backend, { device_id: "dev-shared", user_id: "u2" });
    const third = await review(backend, {
      device_id: "dev-shared",
      user_id: "u3",
      email: "c@example.com",
    });
    // Allowed events are not in the queue.
    expect(
      (await backend.decide({ type: "login", device_id: "dev-shared", user_agent: BROWSER }))
        .decision,
    ).toBe("allow");
    const labelled = await merchant.browser.mutate("labels.add", {
      subject_kind: "screening",
      subject_id: first,
      label: "fraud",
      note: "stolen card",
    });
    expect(labelled).toMatchObject({ ok: true });

    const page = await queue(merchant);
    expect(page.items.map((item) => item.id)).toEqual([first, second, third]);
    expect(page.items[0]?.shared).toEqual([]);
    expect(page.items[0]?.label).toMatchObject({
      label: "fraud",
      source: "person",
      who: merchant.email,
    });
    expect(page.items[2]?.shared).toEqual([{ kind: "device", events: 2, fraud: 1 }]);
    expect(page.items[2]?.reasons[0]).toMatchObject({ rule: "rule_scraping", action: "review" });

    // Keyset pages: two, then one, then nothing.
    const one = await queue(merchant, { limit: 2 });
    expect(one.items.map((item) => item.id)).toEqual([first, second]);
    const two = await queue(merchant, { limit: 2, cursor: one.nextCursor });
    expect(two.items.map((item) => item.id)).toEqual([third]);
    expect(two.nextCursor).toBeNull();

    const count = await merchant.browser.query("review.count");
    expect(count).toMatchObject({ ok: true, data: { open: 3, capped: false } });
  });

  it("settles an item once, with who, when and a note; a second settle is a 409", async () => {
    const { merchant, backend } = await reviewingMerchant("settle");
    const id = await review(backend, { user_id: "u-settle" });
    const settled = await merchant.browser.mutate<ScreeningDetail>("review.settle", {
      id,
      decision: "approve",
      note: "known customer",
    });
    expect(settled).toMatchObject({
      ok: true,
      data: {
        id,
        decision: "review",
        review: {
          status: "approved",
          by: merchant.email,
          note: "known customer",
          at: clock.now().toISOString(),
        },
      },
    });
    const again = await merchant.browser.mutate("review.settle", { id, decision: "deny" });
    expect(again).toMatchObject({ ok: false, status: 409 });
    expect(JSON.stringify(again)).toContain(`already approved by ${merchant.email}`);
    expect((await queue(merchant)).items).toEqual([]);
    expect(await merchant.browser.query("review.count")).toMatchObject({ data: { open: 0 } });
  });

  it("filters by rule, type and age, and settles a filtered set in bulk", async () => {
    const { merchant, backend } = await reviewingMerchant("bulk");
    await turnOn(merchant, "rule_scraping", "rule_entropy");
    const old = await review(backend, { user_id: "old" });
    clock.advance(3 * HOUR);
    const young = await review(backend, { user_id: "young" });
    const signup = await backend.decide({
      type: "signup",
      email: "xq7vz9kq2wpl8r@example.com",
      user_agent: BROWSER,
    });
    expect(signup.decision).toBe("review");

    expect((await queue(merchant, { type: "signup" })).items.map((i) => i.id)).toEqual([signup.id]);
    expect((await queue(merchant, { rule: "rule_scraping" })).items.map((i) => i.id)).toEqual([
      old,
      young,
    ]);
    expect((await queue(merchant, { older_than_hours: 2 })).items.map((i) => i.id)).toEqual([old]);

    const bulk = await merchant.browser.mutate("review.bulk", {
      filters: { rule: "rule_scraping" },
      decision: "deny",
      note: "bot sweep",
    });
    expect(bulk).toMatchObject({ ok: true, data: { settled: 2 } });
    expect((await queue(merchant)).items.map((i) => i.id)).toEqual([signup.id]);
    const stored = await t.prisma.screening.findUniqueOrThrow({ where: { id: young } });
    expect(stored).toMatchObject({
      reviewStatus: "denied",
      reviewedBy: merchant.email,
      reviewNote: "bot sweep",
    });
  });

  it("queues a charge the rules answer review beside screenings, and settles it like one", async () => {
    const { merchant, backend } = await reviewingMerchant("charges");
    const stripe = await connectStripe(merchant);
    await reviewHighRiskCharges(merchant);
    const send = async (event: Parameters<typeof deliver>[2]) =>
      expect((await deliver(t, stripe.path, event, stripe.webhookSecret)).status).toBe(200);
    const secs = () => Math.floor(clock.now().getTime() / 1000);

    const risky = buildCharge({
      riskScore: 82,
      riskLevel: "elevated",
      email: "buyer@example.com",
      amount: 12_500,
      currency: "eur",
      created: secs() - 120,
    });
    await send(buildEvent("charge.succeeded", risky));
    const screening = await review(backend, { user_id: "u-charge" });
    const later = buildCharge({ riskScore: 90, email: "late@example.com", created: secs() });
    await send(buildEvent("charge.succeeded", later));
    const calm = buildCharge({ riskScore: 10, email: "calm@example.com", created: secs() });
    await send(buildEvent("charge.succeeded", calm));
    // Reviewed, so nothing refunded.
    expect(await t.prisma.stripeAction.count({ where: { accountId: merchant.accountId } })).toBe(0);

    const order = [risky.id, screening, later.id];
    const page = await queue(merchant);
    expect(page.items.map((item) => item.id)).toEqual(order);
    expect(page.items.map((item) => item.kind)).toEqual(["charge", "screening", "charge"]);
    expect(page.items[0]).toMatchObject({
      kind: "charge",
      type: null,
      email: "buyer@example.com",
      score: 82,
      charge: { amount: 125, currency: "eur" },
      reasons: [
        { rule: "rule_high_risk", action: "review", message: expect.stringContaining("82") },
      ],
      label: null,
    });
    // Pages of one cross from charges to screenings and back without losing or repeating one.
    const paged: string[] = [];
    for (let cursor: string | null = null, i = 0; i < 4; i++) {
      const one: Page = await queue(merchant, { limit: 1, ...(cursor ? { cursor } : {}) });
      paged.push(...one.items.map((item) => item.id));
      cursor = one.nextCursor;
      if (!cursor) break;
    }
    expect(paged).toEqual(order);
    expect(await merchant.browser.query("review.count")).toMatchObject({ data: { open: 3 } });
    // Kind picks screenings or charges; charges have no screening type; the rule filter
    // reads a charge's reasons.
    expect((await queue(merchant, { kind: "charge" })).items.map((i) => i.id)).toEqual([
      risky.id,
      later.id,
    ]);
    expect((await queue(merchant, { kind: "screening" })).items.map((i) => i.id)).toEqual([
      screening,
    ]);
    expect((await queue(merchant, { type: "request" })).items.map((i) => i.id)).toEqual([
      screening,
    ]);
    expect((await queue(merchant, { kind: "charge", type: "request" })).items).toEqual([]);
    expect(await merchant.browser.query("review.queue", { kind: "refund" })).toMatchObject({
      ok: false,
      status: 400,
    });
    expect((await queue(merchant, { rule: "rule_high_risk" })).items.map((i) => i.id)).toEqual([
      risky.id,
      later.id,
    ]);

    await merchant.browser.mutate("labels.add", {
      subject_kind: "charge",
      subject_id: risky.id,
      label: "legitimate",
    });
    expect((await queue(merchant)).items[0]?.label).toMatchObject({ label: "legitimate" });
    const settled = await merchant.browser.mutate<ChargeReviewDetail>("review.settle", {
      id: risky.id,
      kind: "charge",
      decision: "approve",
      note: "known buyer",
    });
    expect(settled).toMatchObject({
      ok: true,
      data: {
        kind: "charge",
        id: risky.id,
        review: {
          status: "approved",
          by: merchant.email,
          note: "known buyer",
          at: clock.now().toISOString(),
        },
        labels: [{ label: "legitimate" }],
      },
    });
    const again = await merchant.browser.mutate("review.settle", {
      id: risky.id,
      kind: "charge",
      decision: "deny",
    });
    expect(again).toMatchObject({ ok: false, status: 409 });
    expect(JSON.stringify(again)).toContain(`already approved by ${merchant.email}`);
    // A later event about the charge does not reopen its review, and keeps how it was settled.
    const settledAt = clock.now();
    await send(buildEvent("charge.updated", risky, { created: secs() + 5 }));
    expect((await queue(merchant)).items.map((i) => i.id)).toEqual([screening, later.id]);
    expect(
      await t.prisma.transaction.findUniqueOrThrow({
        where: { accountId_chargeId: { accountId: merchant.accountId, chargeId: risky.id } },
      }),
    ).toMatchObject({
      reviewStatus: "approved",
      reviewedAt: settledAt,
      reviewedBy: merchant.email,
      reviewNote: "known buyer",
      reviewReasons: [expect.objectContaining({ rule: "rule_high_risk", action: "review" })],
      refunded: false,
    });

    const notReviewed = await merchant.browser.mutate("review.settle", {
      id: calm.id,
      kind: "charge",
      decision: "deny",
    });
    expect(notReviewed).toMatchObject({ ok: false, status: 409 });
    const other = await signedInMerchant(t, `charges-other-${kind}@example.com`);
    expect(
      await other.browser.mutate("review.settle", {
        id: later.id,
        kind: "charge",
        decision: "deny",
      }),
    ).toMatchObject({ ok: false, status: 404 });

    const charges = await merchant.browser.mutate("review.bulk", {
      filters: { kind: "charge" },
      decision: "deny",
    });
    expect(charges).toMatchObject({ ok: true, data: { settled: 1 } });
    expect((await queue(merchant)).items.map((i) => i.id)).toEqual([screening]);
    const bulk = await merchant.browser.mutate("review.bulk", { filters: {}, decision: "deny" });
    expect(bulk).toMatchObject({ ok: true, data: { settled: 1 } });
    expect((await queue(merchant)).items).toEqual([]);
    expect(
      await t.prisma.transaction.findUniqueOrThrow({
        where: { accountId_chargeId: { accountId: merchant.accountId, chargeId: later.id } },
      }),
    ).toMatchObject({ reviewStatus: "denied", reviewedBy: merchant.email });
  });

  it("lets a backend read and settle a screening by API key, and only its own", async () => {
    const { merchant, backend } = await reviewingMerchant("api");
    const id = await review(backend, { user_id: "u-api" });
    const read = await backend.client.json<ScreeningDetail>(`/api/v1/screenings/${id}`);
    expect(read.status).toBe(200);
    // The history's row, with its review and labels: the collector's address and the
    // features that could not be computed too.
    expect(read.body).toMatchObject({
      id,
      decision: "review",
      collect_ip: null,
      unavailable: [],
      review: { status: "open", by: null },
      labels: [],
    });

    const bad = await backend.client.json(`/api/v1/screenings/${id}/decision`, {
      body: { decision: "maybe" },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("decision");
    const denied = await backend.client.json<ScreeningDetail>(`/api/v1/screenings/${id}/decision`, {
      body: { decision: "deny", note: "chargeback risk" },
    });
    expect(denied.status).toBe(200);
    expect(denied.body.review).toMatchObject({ status: "denied", note: "chargeback risk" });
    expect(denied.body.review?.by).toMatch(/^API key /);
    const twice = await backend.client.json(`/api/v1/screenings/${id}/decision`, {
      body: { decision: "deny" },
    });
    expect(twice.status).toBe(409);

    // A session token is not an API key; another merchant's key sees nothing.
    expect((await merchant.api.json(`/api/v1/screenings/${id}`)).status).toBe(401);
    expect((await new TestClient(t.baseUrl, {}).json(`/api/v1/screenings/${id}`)).status).toBe(401);
    const other = await reviewingMerchant("api-other");
    expect((await other.backend.client.json(`/api/v1/screenings/${id}`)).status).toBe(404);
    const stolen = await other.backend.client.json("/api/v1/labels", {
      body: { subject_kind: "screening", subject_id: id, label: "legitimate" },
    });
    expect(stolen.status).toBe(404);
    expect(
      (await other.merchant.browser.mutate("review.settle", { id, decision: "approve" })).status,
    ).toBe(404);
  });

  it("keeps labels as history: a new label is added, the earlier one stays", async () => {
    const { merchant, backend } = await reviewingMerchant("labels");
    const id = await review(backend, { user_id: "u-label" });
    const first = await backend.client.json<LabelView>("/api/v1/labels", {
      body: { subject_kind: "screening", subject_id: id, label: "fraud", note: "chargeback" },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ label: "fraud", source: "api", note: "chargeback" });
    clock.advance(1000);
    const second = await merchant.browser.mutate("labels.add", {
      subject_kind: "screening",
      subject_id: id,
      label: "legitimate",
    });
    expect(second).toMatchObject({ ok: true });
    const history = await merchant.browser.query<LabelView[]>("labels.history", {
      subject_kind: "screening",
      subject_id: id,
    });
    expect(history).toMatchObject({
      ok: true,
      data: [
        { label: "legitimate", source: "person", who: merchant.email },
        { label: "fraud", source: "api" },
      ],
    });
    for (const [body, field] of [
      [{ subject_kind: "screening", subject_id: id, label: "bad" }, "label"],
      [{ subject_kind: "refund", subject_id: id, label: "fraud" }, "subject_kind"],
      [{ subject_kind: "screening", subject_id: id, label: "fraud", extra: 1 }, "(root)"],
    ] as const) {
      const res = await backend.client.json<{ error: { issues: { path: string }[] } }>(
        "/api/v1/labels",
        { body },
      );
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.issues[0]?.path).toBe(field);
    }
    const missing = await backend.client.json("/api/v1/labels", {
      body: { subject_kind: "charge", subject_id: "ch_nope", label: "fraud" },
    });
    expect(missing.status).toBe(404);
  });

  it("labels a charge fraud from a fraud dispute and an early fraud warning, once per event", async () => {
    const merchant = await signedInMerchant(t, `stripe-labels-${kind}@example.com`);
    const hook = await connectStripe(merchant);
    const send = (event: Parameters<typeof deliver>[2]) =>
      deliver(t, hook.path, event, hook.webhookSecret);
    const labelsOf = (chargeId: string) =>
      t.prisma.label.findMany({ where: { accountId: merchant.accountId, subjectId: chargeId } });

    const disputed = buildCharge({ email: "d@example.com" });
    expect((await send(buildEvent("charge.succeeded", disputed))).status).toBe(200);
    const dispute = buildEvent("charge.dispute.created", buildDispute(disputed));
    expect((await send(dispute)).status).toBe(200);
    expect((await send(dispute)).body).toMatchObject({ status: "duplicate" });
    expect(await labelsOf(disputed.id)).toMatchObject([
      { subjectKind: "charge", label: "fraud", source: "stripe", note: "fraudulent dispute" },
    ]);

    const notFraud = buildCharge({ email: "n@example.com" });
    await send(buildEvent("charge.succeeded", notFraud));
    await send(
      buildEvent("charge.dispute.created", {
        ...buildDispute(notFraud),
        reason: "duplicate",
      } as never),
    );
    expect(await labelsOf(notFraud.id)).toEqual([]);

    const warned = buildCharge({ email: "w@example.com" });
    await send(buildEvent("charge.succeeded", warned));
    const warning = buildEarlyFraudWarning(warned);
    await send(buildEvent("radar.early_fraud_warning.created", warning));
    await send(buildEvent("radar.early_fraud_warning.updated", warning, { id: "evt_efw_updated" }));
    expect(await labelsOf(warned.id)).toMatchObject([
      { label: "fraud", source: "stripe", note: "early fraud warning (made_with_stolen_card)" },
    ]);
  });

  it("documents the decision-loop endpoints in the OpenAPI document", async () => {
    const doc = await new TestClient(t.baseUrl, {}).json<{
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    }>("/api/openapi.json");
    expect(Object.keys(doc.body.paths["/api/v1/labels"] ?? {})).toEqual(["post"]);
    expect(Object.keys(doc.body.paths["/api/v1/screenings/{id}"] ?? {})).toEqual(["get"]);
    expect(Object.keys(doc.body.paths["/api/v1/screenings/{id}/decision"] ?? {})).toEqual(["post"]);
    expect(doc.body.paths["/api/v1/labels"]?.post?.security).toEqual([{ apiKey: [] }]);
  });
});
