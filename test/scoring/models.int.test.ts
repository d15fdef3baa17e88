/**
 * Labels that teach, over real HTTP, on the embedded database and on PostgreSQL: screenings
 * through POST /api/v1/screen, labelled through POST /api/v1/labels, review decisions and a
 * Stripe fraud dispute; a proposal refused below 50 labels of a class, then made with its
 * backtest; nothing in force until a member adopts it; the next screening's contributions use
 * the adopted weights; rollback walks back to the version before, then the defaults; and one
 * merchant never sees or changes another's versions. Guards (issue 41): labels keep which API
 * key or member gave them; a proposal that stops blocking most of what is blocked, counts a
 * sign of abuse against it, or learnt mostly from one source says so, and is adopted only
 * with each warning confirmed (the red team's poisoned fit among them).
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_WEIGHTS } from "../../server/engine/default-weights.ts";
import { POINTS_PER_LOG_ODDS } from "../../server/engine/score.ts";
import type { AuditPage } from "../../shared/schemas/audit.ts";
import type { LabelView } from "../../shared/schemas/labels.ts";
import type {
  ScoreModels,
  ScoreModelView,
  WarningCode,
} from "../../shared/schemas/score-models.ts";
import { buildCharge, buildDispute, buildEvent } from "../fixtures/stripe.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import { type TestApp, testClock } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

const BROWSER =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";
const BOT = "python-requests/2.31";
const DAY = 86_400_000;
/** Obvious bot signups the red team's key labelled legitimate (and as many customers fraud). */
const POISONED = 200;

type ErrorBody = {
  error: { code: string; message: string; issues?: { path: string; message: string }[] };
};

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
  withTestApp(kind, { clock }, (app) => {
    t = app;
  });

  const models = async (m: Merchant) => {
    const res = await m.api.json<ScoreModels>("/api/scoring/models");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const propose = (m: Merchant) =>
    m.api.json<ScoreModelView & ErrorBody>("/api/scoring/proposals", { method: "POST" });
  const adopt = (m: Merchant, id: string, confirm?: readonly string[]) =>
    m.api.json<ScoreModels & ErrorBody>(`/api/scoring/models/${id}/adopt`, {
      method: "POST",
      ...(confirm && { body: { confirm } }),
    });
  const codes = (model: ScoreModelView) => model.warnings.map((w) => w.code);
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
    // The backend's one key gave the 100 labels and settled the 10 reviews: 110 of 111 (the
    // Stripe dispute is no one's), so the proposal warns of it, and of nothing else.
    expect(metrics.labels.top_source).toEqual({
      kind: "api_key",
      id: backend.keyId,
      name: expect.stringMatching(/^"backend" \(wdn_sk_/),
      labels: 110,
    });
    expect(proposal.warnings).toEqual([
      expect.objectContaining({ code: "one_source", labels: 110, of: 111, share: 0.991 }),
    ]);

    // Proposed is not adopted: the next screening still scores with the defaults.
    expect((await models(merchant)).in_force).toMatchObject({ model_id: null });
    expect(await botPoints(backend, 2)).toBe(before);

    // Its warning unconfirmed, adopting is a 400 that names it; confirmed, it is adopted.
    const unconfirmed = await adopt(merchant, proposal.id);
    expect(unconfirmed.status, JSON.stringify(unconfirmed.body)).toBe(400);
    expect(unconfirmed.body.error.message).toBe(
      "confirm: each warning of this version must be confirmed to adopt it; not confirmed: one_source",
    );
    const adopted = await adopt(merchant, proposal.id, ["one_source"]);
    expect(adopted.status, JSON.stringify(adopted.body)).toBe(200);
    expect(adopted.body.in_force).toEqual({
      version: "acct-1",
      model_id: proposal.id,
      confirmed_warnings: ["one_source"],
    });
    expect(adopted.body.models[0]).toMatchObject({ status: "adopted", adopted_by: merchant.email });
    const after = await botPoints(backend, 3);
    expect(after).toBe(pointsOf(proposal.weights.weights.bot_user_agent));
    expect(after).toBeGreaterThan(before ?? 0);
    const again = await adopt(merchant, proposal.id, ["one_source"]);
    expect([again.status, again.body.error.message]).toEqual([
      409,
      "Version 1 is already in force.",
    ]);

    // A second version on top, then back: version 1, then the defaults, then nothing to undo.
    clock.advance(60_000);
    const v2 = await propose(merchant);
    expect(v2.body).toMatchObject({ version: 2, metrics: { compared_with: "acct-1" } });
    expect((await adopt(merchant, v2.body.id, codes(v2.body))).body.in_force).toMatchObject({
      version: "acct-2",
    });
    expect((await models(merchant)).models.map((m) => [m.version, m.status])).toEqual([
      [2, "adopted"],
      [1, "retired"],
    ]);
    const back = await rollback(merchant);
    expect(back.status).toBe(200);
    expect(back.body.in_force).toEqual({
      version: "acct-1",
      model_id: proposal.id,
      confirmed_warnings: ["one_source"],
    });
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
    expect((await adopt(b, proposal.id, codes(proposal))).status).toBe(404);
    expect((await adopt(a, proposal.id, codes(proposal))).status).toBe(200);
    expect((await rollback(b)).status).toBe(409);
    expect((await models(a)).in_force.model_id).toBe(proposal.id);
    expect((await models(b)).in_force.model_id).toBeNull();
  });

  it("keeps which API key or member gave each label; one giving more than half of a fit's labels is a warning", async () => {
    const merchant = await signedInMerchant(t, `sources-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    const userId = (await t.prisma.user.findUniqueOrThrow({ where: { email: merchant.email } })).id;
    const byMember = async (id: string, value: "fraud" | "legitimate") => {
      clock.advance(1000);
      const res = await merchant.browser.mutate<LabelView>("labels.add", {
        subject_kind: "screening",
        subject_id: id,
        label: value,
      });
      if (!res.ok) throw new Error(JSON.stringify(res.error));
      return res.data;
    };
    // Half labelled by the backend's key, half by a member in the console: 50 of 100 each.
    const seeded = await screen(backend, 0, 50);
    for (const [i, id] of seeded.fraud.entries()) {
      if (i < 25) await label(backend, id, "fraud");
      else await byMember(id, "fraud");
    }
    for (const [i, id] of seeded.legitimate.entries()) {
      if (i < 25) await label(backend, id, "legitimate");
      else expect(await byMember(id, "legitimate")).toMatchObject({ who_id: userId });
    }
    const byKey = await backend.client.json<LabelView>("/api/v1/labels", {
      body: { subject_kind: "screening", subject_id: seeded.fraud[0], label: "fraud" },
    });
    expect(byKey.body).toMatchObject({ source: "api", who_id: backend.keyId });
    const history = await merchant.browser.query<LabelView[]>("labels.history", {
      subject_kind: "screening",
      subject_id: seeded.legitimate[30],
    });
    expect(history.ok && history.data).toMatchObject([
      { source: "person", who: merchant.email, who_id: userId },
    ]);
    const stored = await t.prisma.label.findMany({
      where: { accountId: merchant.accountId },
      select: { whoId: true },
      distinct: ["whoId"],
      orderBy: { whoId: "asc" },
    });
    expect(stored.map((l) => l.whoId).sort()).toEqual([backend.keyId, userId].sort());

    // Half from one source is not "mostly": no warning, and adopting needs no confirmation.
    const even = await propose(merchant);
    expect(even.status, JSON.stringify(even.body)).toBe(200);
    expect(even.body.metrics?.labels.top_source?.labels).toBe(50);
    expect(codes(even.body)).toEqual([]);
    expect((await adopt(merchant, even.body.id)).status).toBe(200);

    // Two more by the member: 52 of 102, more than half, and the warning names them.
    const more = await screen(backend, 50, 1);
    await byMember(more.fraud[0] ?? "", "fraud");
    await byMember(more.legitimate[0] ?? "", "legitimate");
    const mostly = await propose(merchant);
    expect(mostly.status, JSON.stringify(mostly.body)).toBe(200);
    expect(mostly.body.warnings).toEqual([
      {
        code: "one_source",
        message: `52 of the 102 labelled screenings these weights learnt from (51%) were labelled by one member, ${merchant.email}. If those labels are wrong, or the account is in the wrong hands, so are these weights.`,
        source: { kind: "member", id: userId, name: merchant.email },
        labels: 52,
        of: 102,
        share: 0.51,
      },
    ]);
  });

  it("the red team's poisoned fit: one key's labels turn obvious bot signups around; it warns, and is adopted only with each warning confirmed", async () => {
    const merchant = await signedInMerchant(t, `poison-${kind}@example.com`);
    const backend = await backendOf(t, merchant, "leaked");
    const put = await merchant.api.json("/api/scoring/thresholds", {
      method: "PUT",
      body: { thresholds: { signup: { review: 60, block: 80 } } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    /** An obvious bot signup: a hosting provider's address, a disposable inbox, a bot's agent. */
    const bot = (n: number) => ({
      type: "signup" as const,
      email: `bot${n}@mailinator.com`,
      ip: `51.15.${n}.1`,
      user_agent: BOT,
    });
    /** An ordinary customer: a mailbox provider's address, a browser, a home address. */
    const person = (n: number) => ({
      type: "signup" as const,
      email: `customer.${n}@gmail.com`,
      ip: `203.0.${n % 250}.${1 + Math.floor(n / 250)}`,
      user_agent: BROWSER,
    });
    const bots: string[] = [];
    const people: string[] = [];
    for (let i = 0; i < POISONED; i++) {
      const answer = await backend.decide(bot(i));
      expect(answer.decision).toBe("block");
      bots.push(answer.id);
      const customer = await backend.decide(person(i));
      expect(customer.decision).toBe("allow");
      people.push(customer.id);
      clock.advance(60_000);
    }
    // The leaked key's labels: every bot legitimate, every person fraud.
    for (const id of bots) await label(backend, id, "legitimate");
    for (const id of people) await label(backend, id, "fraud");

    const made = await propose(merchant);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const { id, warnings } = made.body;
    expect(codes(made.body)).toEqual(["stops_blocking", "attack_signal_negative", "one_source"]);
    const [stops, negative, source] = warnings;
    // Every bot was blocked; the proposal blocks none of them.
    expect(stops).toMatchObject({ days: 30, blocked_now: POISONED, still_blocked: 0 });
    expect(stops?.message).toBe(
      `These weights would let through ${POISONED} of the ${POISONED} screenings (100%) the weights in force blocked in the last 30 days. Adopt them only if you know those screenings were not abuse.`,
    );
    // A sign of a farm (many signups from one network) now lowers the score: each signal
    // named went from the shipped weights' plus to a minus.
    const turned = negative?.code === "attack_signal_negative" ? negative.signals : [];
    expect(turned.map((s) => s.signal)).toContain("signups_network");
    for (const s of turned) {
      const shipped = POINTS_PER_LOG_ODDS * (DEFAULT_WEIGHTS.weights[s.signal] ?? 0);
      expect([s.signal, s.from, Math.sign(s.to)]).toEqual([
        s.signal,
        Math.round(shipped * 10) / 10,
        -1,
      ]);
    }
    const shippedNetwork = (
      POINTS_PER_LOG_ODDS * (DEFAULT_WEIGHTS.weights.signups_network ?? 0)
    ).toFixed(1);
    expect(negative?.message).toMatch(
      new RegExp(`signups network \\+${shippedNetwork.replace(".", "\\.")} → −\\d+\\.\\d points`),
    );
    expect(source).toMatchObject({
      source: { kind: "api_key", id: backend.keyId, name: expect.stringMatching(/^"leaked"/) },
      labels: 2 * POISONED,
      of: 2 * POISONED,
      share: 1,
    });
    expect((await models(merchant)).models[0]?.warnings).toEqual(warnings);

    // Nothing confirmed, two of three, a code that is none: each a 400 under `confirm`.
    const none = await adopt(merchant, id);
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe(
      "confirm: each warning of this version must be confirmed to adopt it; not confirmed: stops_blocking, attack_signal_negative, one_source",
    );
    expect(none.body.error.issues?.map((i) => i.path)).toEqual(["confirm", "confirm", "confirm"]);
    const some = await adopt(merchant, id, ["stops_blocking", "one_source"]);
    expect(some.status).toBe(400);
    expect(some.body.error.issues).toEqual([
      { path: "confirm", message: expect.stringMatching(/^must include attack_signal_negative: /) },
    ]);
    const unknown = await adopt(merchant, id, ["whatever"]);
    expect([unknown.status, unknown.body.error.issues?.[0]?.path]).toEqual([400, "confirm.0"]);
    const viaConsole = await merchant.browser.mutate("scoreModels.adopt", { id, confirm: [] });
    expect(viaConsole).toMatchObject({ ok: false, status: 400 });
    // So nothing is in force, and the next obvious bot is still blocked.
    expect((await models(merchant)).in_force.model_id).toBeNull();
    expect((await backend.decide(bot(100))).decision).toBe("block");

    // Each confirmed: adopted, and the adopt's audit event keeps which.
    const all: WarningCode[] = ["one_source", "attack_signal_negative", "stops_blocking"];
    const adopted = await adopt(merchant, id, all);
    expect(adopted.status, JSON.stringify(adopted.body)).toBe(200);
    const confirmed = ["stops_blocking", "attack_signal_negative", "one_source"];
    expect(adopted.body.in_force).toEqual({
      version: "acct-1",
      model_id: id,
      confirmed_warnings: confirmed,
    });
    expect(adopted.body.models[0]?.confirmed_warnings).toEqual(confirmed);
    const audit = await merchant.api.json<AuditPage>("/api/audit?action=scoreModels.adopt");
    expect(audit.body.items).toMatchObject([
      {
        action: "scoreModels.adopt",
        target: id,
        before: { in_force: { model_id: null, confirmed_warnings: [] } },
        after: { in_force: { model_id: id, confirmed_warnings: confirmed } },
      },
    ]);
    // What the warnings said it would do: the next obvious bot signup is let through.
    expect((await backend.decide(bot(101))).decision).toBe("allow");
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
