/**
 * The risk score's contributions over real HTTP, on the embedded database and on PostgreSQL:
 * POST /api/v1/screen answers them summing to the score, GET /api/v1/screenings/{id} and the
 * review queue give back the same, a sum past 0–100 is held there, a screening stored before
 * the score has none, another merchant reads none of them, and the OpenAPI document declares
 * them on both answers.
 */
import { describe, expect, it } from "vitest";
import type { Prisma } from "../../server/db/generated/client.ts";
import type { ReviewItem, ScreeningDetail } from "../../shared/schemas/review.ts";
import type { Contribution } from "../../shared/schemas/screening.ts";
import { TEMPLATE_KEYS } from "../../shared/schemas/templates.ts";
import type { Weights } from "../../shared/score/weights.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

/**
 * A signup with several signals: an address Scaleway hosts (the offline geo data's hosting
 * list), a disposable domain, a bot's user agent, no collector token nor device id, a new
 * account.
 */
const SIGNALLED = {
  type: "signup",
  user_id: "u-signalled",
  email: "temp@mailinator.com",
  ip: "51.15.0.1",
  user_agent: "python-requests/2.31",
} as const;

const TEMPLATES_OFF = Object.fromEntries(TEMPLATE_KEYS.map((key) => [key, false]));

const sum = (parts: readonly Contribution[]) => parts.reduce((total, c) => total + c.points, 0);

/** Weights a merchant adopted (its own fit), stored as the scoring repository reads them. */
function adopt(t: TestApp, merchant: Merchant, intercept: number) {
  const weights: Weights = {
    version: "acct-1",
    fitted: { note: "test" },
    intercepts: { signup: intercept },
    weights: { hosting_network: 1, disposable_email: 1, no_browser: 0 },
    thresholds: {},
  };
  return t.prisma.scoreModel.create({
    data: {
      accountId: merchant.accountId,
      version: 1,
      weights: weights as Prisma.InputJsonObject,
      status: "adopted",
    },
  });
}

describe.each(DB_KINDS)("risk score contributions over HTTP (%s)", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  const detail = async (backend: Backend, id: string) => {
    const res = await backend.client.json<ScreeningDetail>(`/api/v1/screenings/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it("answers the screen with contributions that sum to its score, and stores the same", async () => {
    const merchant = await signedInMerchant(t, `sum-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    const answer = await backend.decide(SIGNALLED);

    const [first, ...rest] = answer.contributions;
    // The signals, then the caps and the hold (decision 030): negative, without a value, last.
    const signals = rest.filter((c) => !/^(cap_|held_at_review$)/.test(c.signal));
    const adjustments = rest.slice(signals.length);
    expect([...signals, ...adjustments]).toEqual(rest);
    for (const c of adjustments) {
      expect(c.signal).toMatch(
        /^(cap_(context|identity|network|email|device|behaviour|history)|held_at_review)$/,
      );
      expect(c.points).toBeLessThan(0);
      expect(c).not.toHaveProperty("value");
    }
    expect(first).toEqual({
      signal: "baseline",
      points: expect.any(Number),
      detail: "where a signup starts",
    });
    expect(signals.map((c) => c.signal)).toEqual(
      expect.arrayContaining([
        "account_new",
        "hosting_network",
        "no_browser",
        "bot_user_agent",
        "disposable_email",
      ]),
    );
    for (const c of signals) {
      expect(c, c.signal).toEqual({
        signal: expect.any(String),
        points: expect.any(Number),
        detail: expect.any(String),
        value: expect.any(Number),
      });
      expect(Number.isInteger(c.points), c.signal).toBe(true);
    }
    expect(signals.find((c) => c.signal === "hosting_network")?.detail).toBe(
      "from a hosting provider's network (AS12876)",
    );
    expect(signals.find((c) => c.signal === "disposable_email")?.detail).toBe(
      "disposable email domain mailinator.com",
    );
    // Largest first after the baseline.
    const sizes = signals.map((c) => Math.abs(c.points));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(answer.score).toBe(Math.max(0, Math.min(100, sum(answer.contributions))));

    const stored = await detail(backend, answer.id);
    expect(stored.score).toBe(answer.score);
    expect(stored.contributions).toEqual(answer.contributions);
    const listed = await merchant.browser.query<{
      items: { id: string; contributions: unknown }[];
    }>("screenings.list", {});
    expect(listed).toMatchObject({ ok: true });
    const row = (listed as { data: { items: { id: string; contributions: unknown }[] } }).data
      .items;
    expect(row.find((r) => r.id === answer.id)?.contributions).toEqual(answer.contributions);
  });

  it("sums exactly when the weights keep it inside 0–100, and holds it there when they do not", async () => {
    for (const [name, intercept, score] of [
      ["inside", 0, null],
      ["over", 10, 100],
      ["under", -10, 0],
    ] as const) {
      const merchant = await signedInMerchant(t, `held-${name}-${kind}@example.com`);
      await adopt(t, merchant, intercept);
      const backend = await backendOf(t, merchant);
      const answer = await backend.decide(SIGNALLED);
      const points = Object.fromEntries(answer.contributions.map((c) => [c.signal, c.points]));
      // 10 points double the odds: a weight of 1 (log-odds) is 14 points, 0 is none.
      expect(points, name).toMatchObject({
        baseline: Math.round(50 + (10 / Math.LN2) * intercept),
        hosting_network: 14,
        disposable_email: 14,
        no_browser: 0,
        bot_user_agent: 0,
      });
      const total = sum(answer.contributions);
      if (score === null) {
        expect(total, name).toBe(78);
        expect(answer.score, name).toBe(total);
      } else {
        expect(total > 100 || total < 0, `${name}: ${total}`).toBe(true);
        expect(answer.score, name).toBe(score);
      }
      expect((await detail(backend, answer.id)).contributions, name).toEqual(answer.contributions);
    }
  });

  it("gives the review queue's card the same contributions", async () => {
    const merchant = await signedInMerchant(t, `queue-${kind}@example.com`);
    await turnOn(merchant, "rule_email");
    const put = await merchant.api.json("/api/rule-settings", {
      method: "PUT",
      body: { rule_email: { action: "review" } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const backend = await backendOf(t, merchant);
    const answer = await backend.decide(SIGNALLED);
    expect(answer.decision).toBe("review");
    const page = await merchant.browser.query<{ items: ReviewItem[] }>("review.queue", {});
    const items = (page as { data: { items: ReviewItem[] } }).data.items;
    expect(items.map((i) => [i.id, i.score, i.contributions])).toEqual([
      [answer.id, answer.score, answer.contributions],
    ]);
  });

  it("has no contributions for a screening stored before the risk score", async () => {
    const merchant = await signedInMerchant(t, `before-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    const answer = await backend.decide({ type: "login", user_id: "u-old" });
    await t.prisma
      .$executeRaw`UPDATE "Screening" SET "contributions" = NULL WHERE "id" = ${answer.id}`;
    const stored = await detail(backend, answer.id);
    expect(stored.contributions).toEqual([]);
    expect(stored.score).toBe(answer.score);
  });

  it("shows another merchant none of them: its screening is not found", async () => {
    const owner = await signedInMerchant(t, `owner-${kind}@example.com`);
    const other = await signedInMerchant(t, `other-${kind}@example.com`);
    const answer = await (await backendOf(t, owner)).decide(SIGNALLED);
    const res = await (await backendOf(t, other)).client.json<ScreeningDetail>(
      `/api/v1/screenings/${answer.id}`,
    );
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain("contributions");
  });

  it("says when the score did not act and why, and no longer once a threshold or a template acts", async () => {
    const merchant = await signedInMerchant(t, `note-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    const fresh = await backend.decide({ ...SIGNALLED, user_id: "u-note-1" });
    expect(fresh.decision).toBe("allow");
    expect(fresh.reasons).toEqual([]);
    expect(fresh.score).toBe(100);
    expect(fresh.score_note).toBe(
      "score 100, not acted on: no threshold for signups; set one or turn on a template",
    );
    const stored = await backend.client.json<ScreeningDetail>(`/api/v1/screenings/${fresh.id}`);
    expect(stored.body.score_note).toBe(fresh.score_note);
    // A plain login scores under the level Warden acts at: nothing to say.
    const quiet = await backend.decide({ type: "login", user_id: "u-note-1" });
    expect(quiet.score).toBeLessThan(42);
    expect(quiet).not.toHaveProperty("score_note");

    const put = await merchant.api.json("/api/scoring/thresholds", {
      method: "PUT",
      body: { thresholds: { signup: { review: 60, block: 85 } } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const judged = await backend.decide({ ...SIGNALLED, user_id: "u-note-2" });
    expect(judged.decision).not.toBe("allow");
    expect(judged.reasons.map((r) => r.rule)).toContain("risk_score");
    expect(judged).not.toHaveProperty("score_note");
    // A script reading them back sees what the console's detail says, against the thresholds now.
    const detail = async (id: string) =>
      (await backend.client.json<ScreeningDetail>(`/api/v1/screenings/${id}`)).body;
    expect((await detail(fresh.id)).score_note).toBe(
      "score 100, not acted on when it was screened; signups have a threshold now (60)",
    );
    expect(await detail(judged.id)).not.toHaveProperty("score_note");
    expect(await detail(quiet.id)).not.toHaveProperty("score_note");

    // A template that judges signups acts on the score just as well.
    const other = await signedInMerchant(t, `note-template-${kind}@example.com`);
    const otherBackend = await backendOf(t, other);
    const on = await other.api.json("/api/templates", {
      method: "PUT",
      body: { ...TEMPLATES_OFF, template_disposable_email_throttle: true },
    });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    const throttled = await otherBackend.decide({ ...SIGNALLED, user_id: "u-note-3" });
    expect(throttled.reasons.map((r) => r.rule)).toContain("risk_score");
    expect(throttled).not.toHaveProperty("score_note");

    // Declared for scripts: an optional string on the screen answer.
    type Answer = { properties: Record<string, { type?: string }>; required: string[] };
    const doc = await new TestClient(t.baseUrl, {}).json<{
      paths: Record<
        string,
        { post?: { responses: Record<string, { content: Record<string, { schema: Answer }> }> } }
      >;
    }>("/api/openapi.json");
    const schema = doc.body.paths["/api/v1/screen"]?.post?.responses["200"]?.content[
      "application/json"
    ]?.schema as Answer;
    expect(schema.properties.score_note?.type).toBe("string");
    expect(schema.required).not.toContain("score_note");
  });

  it("declares contributions beside score on the screen answer and the stored detail", async () => {
    type Schema = {
      type?: string;
      properties?: Record<string, Schema>;
      required?: string[];
      items?: Schema;
    };
    const doc = await new TestClient(t.baseUrl, {}).json<{
      paths: Record<
        string,
        Record<
          string,
          { responses: Record<string, { content: Record<string, { schema: Schema }> }> }
        >
      >;
    }>("/api/openapi.json");
    expect(doc.status).toBe(200);
    for (const [path, method] of [
      ["/api/v1/screen", "post"],
      ["/api/v1/screenings/{id}", "get"],
    ] as const) {
      const schema =
        doc.body.paths[path]?.[method]?.responses["200"]?.content["application/json"]?.schema;
      expect(schema?.properties?.score, path).toBeDefined();
      expect(schema?.required, path).toEqual(expect.arrayContaining(["score", "contributions"]));
      const list = schema?.properties?.contributions;
      expect(list?.type, path).toBe("array");
      expect(Object.keys(list?.items?.properties ?? {}), path).toEqual([
        "signal",
        "points",
        "detail",
        "value",
      ]);
      expect(list?.items?.required, path).toEqual(["signal", "points", "detail"]);
      expect(list?.items?.properties?.points?.type, path).toBe("integer");
    }
  });
});
