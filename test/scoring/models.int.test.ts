/**
 * Labels that teach, over real HTTP, on the embedded database and on PostgreSQL: screenings
 * through POST /api/v1/screen, labelled through POST /api/v1/labels, review decisions and a
 * Stripe fraud dispute; a proposal refused below 50 labels of a class, then made with its
 * backtest; nothing in force until a member adopts it; the next screening's contributions use
 * the adopted weights; rollback walks back to the version before, then the defaults; and one
 * merchant never sees or changes another's versions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_WEIGHTS } from "../../server/engine/default-weights.ts";
import { POINTS_PER_LOG_ODDS } from "../../server/engine/score.ts";
import type { ScoreModels, ScoreModelView } from "../../shared/schemas/score-models.ts";
import { buildCharge, buildDispute, buildEvent } from "../fixtures/stripe.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp, testClock } from "../helpers/test-app.ts";

const BROWSER =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";
const BOT = "python-requests/2.31";
const DAY = 86_400_000;

type ErrorBody = { error: { code: string; message: string; issues?: { path: string }[] } };

/** A signup the labels will call fraud (a bot's user agent: bot_user_agent fires) or legitimate. */
const signup = (n: number, fraud: boolean) => ({
  type: "signup" as const,
  email: `${fraud ? "f" : "ok"}${n}@mail.example`,
  ip: fraud ? `198.51.100.${n % 250}` : `203.0.${n % 250}.7`,
  user_agent: fraud ? BOT : BROWSER,
});

async function label(backend: Backend, id: string, value: "fraud" | "legitimate") {
  clock.advance(1000); // each label its own second: the newest one is the one that counts
  const res = await backend.client.json("/api/v1/labels", {
    body: { subject_kind: "screening", subject_id: id, label: value },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** The points bot_user_agent adds to a screening with a bot's user agent, as answered. */
async function botPoints(backend: Backend, n: number): Promise<number | undefined> {
  const answer = await backend.decide({
    type: "signup",
    email: `next${n}@mail.example`,
    ip: "198.51.100.7",
    user_agent: BOT,
  });
  return answer.contributions.find((c) => c.signal === "bot_user_agent")?.points;
}

const pointsOf = (weight: number | undefined) => Math.round(POINTS_PER_LOG_ODDS * (weight ?? 0));

const clock = testClock(Date.parse("2026-11-20T10:00:00Z"));

describe.each(DB_KINDS)("labels that teach (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { clock });
  });
  afterAll(async () => {
    await t?.close();
  });

  const models = async (m: Merchant) => {
    const res = await m.api.json<ScoreModels>("/api/scoring/models");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const propose = (m: Merchant) =>
    m.api.json<ScoreModelView & ErrorBody>("/api/scoring/proposals", { method: "POST" });
  const adopt = (m: Merchant, id: string) =>
    m.api.json<ScoreModels & ErrorBody>(`/api/scoring/models/${id}/adopt`, { method: "POST" });
  const rollback = (m: Merchant) =>
    m.api.json<ScoreModels & ErrorBody>("/api/scoring/rollback", { method: "POST" });

  /** Screens `n` signups of each kind, a minute apart; returns their ids. */
  async function screen(backend: Backend, from: number, n: number) {
    const fraud: string[] = [];
    const legitimate: string[] = [];
    for (let i = from; i < from + n; i++) {
      fraud.push((await backend.decide(signup(i, true))).id);
      legitimate.push((await backend.decide(signup(i, false))).id);
      clock.advance(60_000);
    }
    return { fraud, legitimate };
  }

  it("proposes from labels, adopts on one click, scores with it at once, and rolls back", async () => {
    const merchant = await signedInMerchant(t, `teach-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    expect(await models(merchant)).toMatchObject({
      in_force: { version: expect.stringMatching(/^default-/), model_id: null },
      models: [],
    });

    // 40 of each labelled: too few, and the answer says how many of each it has and needs.
    const first = await screen(backend, 0, 40);
    for (const id of first.fraud) await label(backend, id, "fraud");
    for (const id of first.legitimate) await label(backend, id, "legitimate");
    const few = await propose(merchant);
    expect(few.status, JSON.stringify(few.body)).toBe(400);
    expect(few.body.error.message).toBe(
      "Your labels hold 40 fraud and 40 legitimate screenings; a proposal needs at least 50 of each.",
    );

    // 10 more of each by label; 10 bot requests the rules sent to review, denied (fraud); one
    // legitimate label changed to fraud (the newest word wins: 51 fraud… then back).
    const second = await screen(backend, 40, 10);
    for (const id of second.fraud) await label(backend, id, "fraud");
    for (const id of second.legitimate) await label(backend, id, "legitimate");
    for (let i = 0; i < 10; i++) {
      const reviewed = await backend.decide({
        type: "request",
        user_agent: BOT,
        ip: `192.0.2.${i}`,
      });
      expect(reviewed.decision).toBe("review");
      const denied = await backend.client.json(`/api/v1/screenings/${reviewed.id}/decision`, {
        body: { decision: "deny" },
      });
      expect(denied.status).toBe(200);
    }
    const flipped = first.legitimate[0] ?? "";
    await label(backend, flipped, "fraud");
    await label(backend, flipped, "legitimate");
    // A checkout whose charge Stripe reports as a fraud dispute a day later.
    const checkout = await backend.decide({
      type: "checkout",
      email: "disputed@mail.example",
      ip: "198.51.100.9",
    });
    const hook = await connectStripe(merchant);
    const charge = buildCharge({
      email: "disputed@mail.example",
      created: Math.floor(clock.now().getTime() / 1000) + 86_400,
    });
    for (const event of [
      buildEvent("charge.succeeded", charge),
      buildEvent("charge.dispute.created", buildDispute(charge)),
    ]) {
      expect((await deliver(t, hook.path, event, hook.webhookSecret)).status).toBe(200);
    }
    expect(checkout.id).toBeTruthy();

    const before = await botPoints(backend, 1);
    expect(before).toBe(pointsOf(DEFAULT_WEIGHTS.weights.bot_user_agent));
    const made = await propose(merchant);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const proposal = made.body;
    expect(proposal).toMatchObject({
      version: 1,
      status: "proposed",
      created_by: merchant.email,
      adopted_at: null,
      weights: { version: "acct-1" },
      metrics: {
        labels: {
          fraud: 61,
          legitimate: 50,
          from: { labels: 100, reviews: 10, stripe: 1 },
          capped: false,
        },
        compared_with: expect.stringMatching(/^default-/),
        folds: 5,
      },
    });
    const metrics = proposal.metrics;
    if (!metrics) throw new Error("no metrics");
    // Cross-validated: every labelled screening judged once on each side.
    for (const side of [metrics.labelled.current, metrics.labelled.proposed]) {
      expect(side.fraud.blocked + side.fraud.reviewed).toBeLessThanOrEqual(61);
      expect(side.legitimate.blocked + side.legitimate.reviewed).toBeLessThanOrEqual(50);
    }
    // The last 30 days: every scored screening (111 labelled, the one above, nothing else).
    expect(metrics.recent.screenings).toBe(112);
    // Every label with a bot's user agent is fraud: that signal's weight goes up.
    const change = metrics.changes.find((c) => c.signal === "bot_user_agent");
    expect(change && change.to > change.from, JSON.stringify(metrics.changes)).toBe(true);

    // Proposed is not adopted: the next screening still scores with the defaults.
    expect((await models(merchant)).in_force).toMatchObject({ model_id: null });
    expect(await botPoints(backend, 2)).toBe(before);

    const adopted = await adopt(merchant, proposal.id);
    expect(adopted.status, JSON.stringify(adopted.body)).toBe(200);
    expect(adopted.body.in_force).toEqual({ version: "acct-1", model_id: proposal.id });
    expect(adopted.body.models[0]).toMatchObject({ status: "adopted", adopted_by: merchant.email });
    const after = await botPoints(backend, 3);
    expect(after).toBe(pointsOf(proposal.weights.weights.bot_user_agent));
    expect(after).toBeGreaterThan(before ?? 0);
    const again = await adopt(merchant, proposal.id);
    expect([again.status, again.body.error.message]).toEqual([
      409,
      "Version 1 is already in force.",
    ]);

    // A second version on top, then back: version 1, then the defaults, then nothing to undo.
    clock.advance(60_000);
    const v2 = await propose(merchant);
    expect(v2.body).toMatchObject({ version: 2, metrics: { compared_with: "acct-1" } });
    expect((await adopt(merchant, v2.body.id)).body.in_force).toMatchObject({ version: "acct-2" });
    expect((await models(merchant)).models.map((m) => [m.version, m.status])).toEqual([
      [2, "adopted"],
      [1, "retired"],
    ]);
    const back = await rollback(merchant);
    expect(back.status).toBe(200);
    expect(back.body.in_force).toEqual({ version: "acct-1", model_id: proposal.id });
    expect(await botPoints(backend, 4)).toBe(after);
    const defaults = await rollback(merchant);
    expect(defaults.body.in_force).toMatchObject({
      version: expect.stringMatching(/^default-/),
      model_id: null,
    });
    expect(await botPoints(backend, 5)).toBe(before);
    const nothing = await rollback(merchant);
    expect([nothing.status, nothing.body.error.message]).toEqual([
      409,
      "Nothing to roll back: the shipped default weights are in force.",
    ]);
    expect((await models(merchant)).models.map((m) => m.status)).toEqual(["retired", "retired"]);
  });

  it("counts Stripe's verdicts on checkouts: a fraud dispute and a charge settled 60 days ago", async () => {
    const merchant = await signedInMerchant(t, `stripe-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    const hook = await connectStripe(merchant);
    const start = clock.now().getTime();
    for (const who of ["disputed", "settled", "refunded", "late"]) {
      await backend.decide({ type: "checkout", email: `${who}@shop.example`, ip: "198.51.100.3" });
    }
    const day = (n: number) => Math.floor((start + n * DAY) / 1000);
    const disputed = buildCharge({ email: "disputed@shop.example", created: day(1) });
    const settled = buildCharge({ email: "settled@shop.example", created: day(2) });
    const refunded = buildCharge({
      email: "refunded@shop.example",
      created: day(2),
      refunded: true,
    });
    const late = buildCharge({ email: "late@shop.example", created: day(61) });
    for (const event of [
      buildEvent("charge.succeeded", disputed),
      buildEvent("charge.dispute.created", buildDispute(disputed)),
      buildEvent("charge.succeeded", settled),
      buildEvent("charge.refunded", refunded),
      buildEvent("charge.succeeded", late),
    ]) {
      expect((await deliver(t, hook.path, event, hook.webhookSecret)).status).toBe(200);
    }
    // 125 days on, the settled charge counts as legitimate; the refunded one and the one made
    // 61 days after its checkout (settled too) say nothing.
    clock.advance(125 * DAY);
    const { token } = await t.app.services.sessions.create(
      (await t.prisma.user.findUniqueOrThrow({ where: { email: merchant.email } })).id,
      merchant.accountId,
    );
    const res = await propose({
      ...merchant,
      api: new TestClient(t.baseUrl, { authorization: `Bearer ${token}` }),
    });
    expect(res.body.error.message).toMatch(
      /^Your labels hold 1 fraud and 1 legitimate screenings;/,
    );
  });

  it("keeps each merchant's versions its own, and makes one proposal at a time", async () => {
    const a = await signedInMerchant(t, `a-models-${kind}@example.com`);
    const b = await signedInMerchant(t, `b-models-${kind}@example.com`);
    const backend = await backendOf(t, a);
    const seeded = await screen(backend, 0, 50);
    for (const id of seeded.fraud) await label(backend, id, "fraud");
    for (const id of seeded.legitimate) await label(backend, id, "legitimate");
    // Two at once: one fits, the other is told one is being made.
    const both = await Promise.all([propose(a), propose(a)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)?.body.error.message).toBe(
      "A proposal is already being made for this account.",
    );
    const proposal = both.find((r) => r.status === 200)?.body as ScoreModelView;
    expect(proposal.status).toBe("proposed");

    expect((await models(b)).models).toEqual([]);
    const bAdopt = await adopt(b, proposal.id);
    expect(bAdopt.status).toBe(404);
    expect((await propose(b)).status).toBe(400);
    expect((await adopt(a, proposal.id)).status).toBe(200);
    expect((await rollback(b)).status).toBe(409);
    expect((await models(a)).in_force.model_id).toBe(proposal.id);
    expect((await models(b)).in_force.model_id).toBeNull();
  });

  it("answers a bad id with a 400 naming it, an unknown one with a 404, and no session with a 401", async () => {
    const m = await signedInMerchant(t, `inputs-${kind}@example.com`);
    const bad = await adopt(m, "not-a-uuid");
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues?.[0]?.path).toBe("id");
    expect((await adopt(m, "6f1b7c1e-0a4b-4c6d-8e2f-1a2b3c4d5e6f")).status).toBe(404);
    const anonymous = await fetch(`${t.baseUrl}/api/scoring/models`);
    expect(anonymous.status).toBe(401);
    const backend = await backendOf(t, m);
    const withKey = await backend.client.json("/api/scoring/proposals", { method: "POST" });
    expect(withKey.status).toBe(401);
  });

  it("documents the routes in the OpenAPI document", async () => {
    const doc = await new TestClient(t.baseUrl).json<{ paths: Record<string, object> }>(
      "/api/openapi.json",
    );
    const methods = (path: string) => Object.keys(doc.body.paths[path] ?? {}).sort();
    expect(methods("/api/scoring/models")).toEqual(["get"]);
    expect(methods("/api/scoring/proposals")).toEqual(["post"]);
    expect(methods("/api/scoring/models/{id}/adopt")).toEqual(["post"]);
    expect(methods("/api/scoring/rollback")).toEqual(["post"]);
  });
});
