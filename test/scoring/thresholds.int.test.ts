/**
 * The risk score's thresholds over real HTTP, on the embedded database and on PostgreSQL:
 * where each type's thresholds come from (own, a template, none), saving them (REST and tRPC;
 * the next screening is judged by them at once), resetting one type (two resets at once both
 * hold), and the preview over the last 30 days: stored score and the rules' own reasons judged
 * again, labels and review decisions as truth, and only the merchant's own screenings.
 */
// biome-ignore-all lint/suspicious/noExplicitAny: the tests read raw JSON bodies.
import { beforeAll, describe, expect, it } from "vitest";
import type { ThresholdPreview, ThresholdsView } from "../../shared/schemas/score-thresholds.ts";
import { DEFAULT_TEMPLATES } from "../../shared/schemas/templates.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf } from "../helpers/screening.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

const DAY = 86_400_000;

async function templatesOn(m: Merchant, ...keys: (keyof typeof DEFAULT_TEMPLATES)[]) {
  const on = Object.fromEntries(keys.map((key) => [key, true]));
  const put = await m.api.json("/api/templates", {
    method: "PUT",
    body: { ...DEFAULT_TEMPLATES, ...on },
  });
  expect(put.status).toBe(200);
}

const view = async (m: Merchant) => {
  const res = await m.api.json<ThresholdsView>("/api/scoring/thresholds");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const typeOf = (v: ThresholdsView, type: string) => v.types.find((t) => t.type === type);

async function preview(m: Merchant, thresholds: Record<string, unknown>) {
  const res = await m.api.json<ThresholdPreview>("/api/scoring/thresholds/preview", {
    body: { thresholds },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe.each(DB_KINDS)("risk score thresholds (%s)", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  it("says where each type's thresholds come from: none, the templates that are on, or its own", async () => {
    const m = await signedInMerchant(t, `sources-${kind}@example.com`);
    const fresh = await view(m);
    expect(fresh.own).toEqual({});
    expect(fresh.weights.version).toMatch(/^default-/);
    expect(fresh.types.map((x) => [x.type, x.source, x.in_force])).toEqual(
      ["signup", "login", "trial_start", "promo_redemption", "referral", "checkout", "request"].map(
        (type) => [type, "none", null],
      ),
    );

    await templatesOn(m, "template_one_human_one_trial", "template_account_farm_shield");
    const on = await view(m);
    const signupDefault = on.weights.thresholds.signup;
    expect(signupDefault).toEqual({ review: expect.any(Number), block: expect.any(Number) });
    expect(typeOf(on, "signup")).toEqual({
      type: "signup",
      in_force: signupDefault,
      source: "template",
      templates: ["One Human One Trial", "Account Farm Shield"],
      template_default: signupDefault,
    });
    expect(typeOf(on, "trial_start")).toMatchObject({
      source: "template",
      templates: ["One Human One Trial"],
    });
    expect(typeOf(on, "login")).toMatchObject({ source: "none", in_force: null, templates: [] });

    // Its own win over the template's; its own "off" (both null) too: nothing acts.
    const saved = await m.api.json<ThresholdsView>("/api/scoring/thresholds", {
      method: "PUT",
      body: {
        thresholds: {
          signup: { review: 40, block: 90 },
          trial_start: { review: null, block: null },
          login: { review: 70, block: null },
        },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(typeOf(saved.body, "signup")).toMatchObject({
      source: "own",
      in_force: { review: 40, block: 90 },
      templates: ["One Human One Trial", "Account Farm Shield"],
      template_default: signupDefault,
    });
    expect(typeOf(saved.body, "trial_start")).toMatchObject({ source: "own", in_force: null });
    expect(typeOf(saved.body, "login")).toMatchObject({
      source: "own",
      in_force: { review: 70, block: null },
      template_default: null,
    });
    expect(await view(m)).toEqual(saved.body);
  });

  it("judges the next screening by saved thresholds at once, and by the template's after a reset", async () => {
    const m = await signedInMerchant(t, `at-once-${kind}@example.com`);
    const backend = await backendOf(t, m);
    const signup = (n: number) => ({
      type: "signup" as const,
      user_id: `u-${n}`,
      ip: "203.0.113.9",
    });
    // Loads (and caches) the policy: no template, no thresholds, nothing acts on the score.
    const before = await backend.decide(signup(1));
    expect(before.decision).toBe("allow");

    const put = await m.browser.mutate<ThresholdsView>("scoreThresholds.put", {
      thresholds: { signup: { review: 0, block: null } },
    });
    expect(put).toMatchObject({ ok: true });
    const after = await backend.decide(signup(2));
    expect(after.decision).toBe("review");
    expect(after.reasons.map((r) => [r.rule, r.action, r.limit])).toEqual([
      ["risk_score", "review", 0],
    ]);

    const reset = await m.browser.mutate<ThresholdsView>("scoreThresholds.reset", {
      type: "signup",
    });
    expect(reset).toMatchObject({ ok: true });
    expect((reset as any).data.own).toEqual({});
    expect((await backend.decide(signup(3))).decision).toBe("allow");
  });

  it("resets two types at once and keeps both resets and the rest of its own", async () => {
    const m = await signedInMerchant(t, `resets-${kind}@example.com`);
    const own = {
      signup: { review: 10, block: 20 },
      login: { review: 30, block: 40 },
      checkout: { review: 50, block: 60 },
    };
    for (let round = 0; round < 5; round++) {
      const put = await m.api.json("/api/scoring/thresholds", {
        method: "PUT",
        body: { thresholds: own },
      });
      expect(put.status).toBe(200);
      const answers = await Promise.all(
        ["signup", "login"].map((type) =>
          m.api.json("/api/scoring/thresholds/reset", { body: { type } }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect((await view(m)).own, `round ${round}`).toEqual({ checkout: own.checkout });
    }
  });

  describe("refuses bad thresholds with the field and the reason, and stores nothing", () => {
    const CASES: [string, unknown, string, string][] = [
      [
        "review above block",
        { thresholds: { signup: { review: 90, block: 80 } } },
        "thresholds.signup.review",
        "review must not be above block",
      ],
      [
        "a block past 100",
        { thresholds: { checkout: { review: 10, block: 101 } } },
        "thresholds.checkout.block",
        "<=100",
      ],
      [
        "a negative review",
        { thresholds: { login: { review: -1, block: 5 } } },
        "thresholds.login.review",
        ">=0",
      ],
      [
        "a fraction",
        { thresholds: { login: { review: 1.5, block: 5 } } },
        "thresholds.login.review",
        "int",
      ],
      [
        "a string",
        { thresholds: { login: { review: "50", block: 5 } } },
        "thresholds.login.review",
        "number",
      ],
      ["a missing half", { thresholds: { login: { review: 5 } } }, "thresholds.login.block", ""],
      [
        "an unknown event type",
        { thresholds: { payout: { review: 1, block: 2 } } },
        "thresholds",
        "payout",
      ],
      ["no thresholds", {}, "thresholds", ""],
      ["an unknown key", { thresholds: {}, extra: 1 }, "(root)", "extra"],
    ];
    let m: Merchant;
    beforeAll(async () => {
      m = await signedInMerchant(t, `invalid-${kind}@example.com`);
      const put = await m.api.json("/api/scoring/thresholds", {
        method: "PUT",
        body: { thresholds: { signup: { review: 50, block: 60 } } },
      });
      expect(put.status).toBe(200);
    });

    it.each(CASES)("%s", async (_name, body, path, reason) => {
      const stored = await t.prisma.scoreSettings.findUnique({ where: { accountId: m.accountId } });
      const rest = async (method: string, url: string) => {
        const res = await m.api.json<any>(url, { method, body });
        return { status: res.status, issues: res.body.error?.issues };
      };
      const trpc = async (path: string) => {
        const res = await m.browser.request(`/trpc/${path}`, json(body));
        return { status: res.status, issues: ((await res.json()) as any).error?.data?.issues };
      };
      const answers = {
        "REST PUT": await rest("PUT", "/api/scoring/thresholds"),
        "REST preview": await rest("POST", "/api/scoring/thresholds/preview"),
        "tRPC put": await trpc("scoreThresholds.put"),
        "tRPC preview": await trpc("scoreThresholds.preview"),
      };
      for (const [how, { status, issues }] of Object.entries(answers)) {
        expect(status, `${how}: ${JSON.stringify(issues)}`).toBe(400);
        const issue = (issues as { path: string; message: string }[]).find((i) => i.path === path);
        expect(issue, `${how}: ${JSON.stringify(issues)}`).toBeDefined();
        expect(issue?.message, how).toContain(reason);
      }
      expect(
        await t.prisma.scoreSettings.findUnique({ where: { accountId: m.accountId } }),
      ).toEqual(stored);
    });

    it("refuses a reset of an unknown type", async () => {
      const res = await m.api.json<any>("/api/scoring/thresholds/reset", { body: { type: "x" } });
      expect(res.status).toBe(400);
      expect(res.body.error.issues).toEqual([
        { path: "type", message: expect.stringContaining("must be one of signup") },
      ]);
    });
  });

  it("documents the routes in the OpenAPI document, with the bounds of a threshold", async () => {
    const doc = await new TestClient(t.baseUrl, {}).json<any>("/api/openapi.json");
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths["/api/scoring/thresholds"]).sort()).toEqual(["get", "put"]);
    expect(Object.keys(doc.body.paths["/api/scoring/thresholds/preview"])).toEqual(["post"]);
    expect(Object.keys(doc.body.paths["/api/scoring/thresholds/reset"])).toEqual(["post"]);
    const body =
      doc.body.paths["/api/scoring/thresholds"].put.requestBody.content["application/json"].schema;
    const thresholds = body.properties.thresholds;
    expect(thresholds.propertyNames.enum).toContain("trial_start");
    expect(thresholds.additionalProperties.properties.review.anyOf).toContainEqual({
      type: "integer",
      minimum: 0,
      maximum: 100,
    });
  });

  it("needs a session: no token, no thresholds", async () => {
    for (const [method, url] of [
      ["GET", "/api/scoring/thresholds"],
      ["PUT", "/api/scoring/thresholds"],
      ["POST", "/api/scoring/thresholds/preview"],
      ["POST", "/api/scoring/thresholds/reset"],
    ]) {
      const res = await fetch(`${t.baseUrl}${url}`, {
        method,
        headers: { "content-type": "application/json" },
        body: method === "GET" ? undefined : JSON.stringify({ thresholds: {} }),
      });
      expect(res.status, `${method} ${url}`).toBe(401);
    }
  });

  describe("preview over the last 30 days", () => {
    let a: Merchant;
    let b: Merchant;
    const ids: Record<string, string> = {};

    /** A stored screening as the engine would have stored it, `ageMs` ago. */
    async function stored(
      m: Merchant,
      name: string,
      row: {
        type?: string;
        score: number;
        reasons?: { rule: string; action: string }[];
        allowed?: boolean;
        scored?: boolean;
        ageMs?: number;
      },
    ) {
      const reasons = (row.reasons ?? []).map((r) => ({
        ...r,
        message: `${r.rule} fired`,
        observed: null,
        limit: null,
      }));
      const decision = row.allowed
        ? "allow"
        : reasons.some((r) => r.action === "block")
          ? "block"
          : reasons.length > 0
            ? "review"
            : "allow";
      const created = await t.prisma.screening.create({
        data: {
          accountId: m.accountId,
          createdAt: new Date(t.clock.now().getTime() - (row.ageMs ?? DAY)),
          type: row.type ?? "signup",
          decision,
          score: row.score,
          rules: reasons.map((r) => r.rule),
          reasons,
          monitored: [],
          input: { type: row.type ?? "signup", user_id: name },
          ...(row.allowed && { allowed: { kind: "email", value: "vip@example.com" } }),
          ...(row.scored !== false && {
            contributions: [{ signal: "baseline", points: row.score, detail: "test" }],
          }),
        },
      });
      ids[name] = created.id;
      return created.id;
    }

    const label = async (m: Merchant, name: string, value: "fraud" | "legitimate") =>
      expect(
        await m.browser.mutate("labels.add", {
          subject_kind: "screening",
          subject_id: ids[name],
          label: value,
        }),
      ).toMatchObject({ ok: true });
    const settle = async (m: Merchant, name: string, decision: "approve" | "deny") =>
      expect(await m.browser.mutate("review.settle", { id: ids[name], decision })).toMatchObject({
        ok: true,
      });

    beforeAll(async () => {
      a = await signedInMerchant(t, `preview-a-${kind}@example.com`);
      b = await signedInMerchant(t, `preview-b-${kind}@example.com`);
      // Signup judged by its own 65 / 80 today (the shipped defaults change with each fit).
      const own = await a.api.json("/api/scoring/thresholds", {
        method: "PUT",
        body: { thresholds: { signup: { review: 65, block: 80 } } },
      });
      expect(own.status).toBe(200);
      const rr = (rule: string, action: string) => ({ rule, action });
      await stored(a, "fraud90", { score: 90 });
      await stored(a, "legit70", { score: 70 });
      await stored(a, "denied70", { score: 70, reasons: [rr("risk_score", "review")] });
      await stored(a, "ruleBlock20", { score: 20, reasons: [rr("rule_email", "block")] });
      await stored(a, "ruleReview30", { score: 30, reasons: [rr("rule_farming", "review")] });
      await stored(a, "allowed95", { score: 95, allowed: true });
      await stored(a, "relabelled85", { score: 85, reasons: [rr("risk_score", "block")] });
      await stored(a, "approvedButFraud75", { score: 75, reasons: [rr("risk_score", "review")] });
      await stored(a, "login100", { type: "login", score: 100 });
      await stored(a, "quiet10", { score: 10 });
      // Outside the window, or stored before the score: not counted.
      await stored(a, "old99", { score: 99, ageMs: 31 * DAY });
      await stored(a, "unscored", { score: 80, scored: false });
      // B's: never in A's preview.
      await stored(b, "b99", { score: 99 });
      await stored(b, "b98", { score: 98 });

      await label(a, "fraud90", "fraud");
      await label(a, "legit70", "legitimate");
      await settle(a, "denied70", "deny");
      await label(a, "allowed95", "legitimate");
      await label(a, "relabelled85", "fraud");
      t.clock.advance(1_000);
      await label(a, "relabelled85", "legitimate");
      await settle(a, "approvedButFraud75", "approve");
      await label(a, "approvedButFraud75", "fraud");
      await label(a, "old99", "fraud");
      await label(b, "b99", "fraud");
    });

    it("counts what the proposed thresholds would block and review against today's, and the labelled ones", async () => {
      const current = typeOf(await view(a), "signup")?.in_force;
      expect(current).toEqual({ review: 65, block: 80 });
      const result = await preview(a, {
        signup: { review: 50, block: 72 },
        login: { review: 50, block: null },
      });
      expect(Date.parse(result.to) - Date.parse(result.from)).toBe(30 * DAY);
      expect(result.unscored).toBe(1);
      const signup = result.types.find((x) => x.type === "signup");
      // Today (65/80): fraud90 block, relabelled85 block (legitimate), approvedButFraud75 review,
      // legit70 and denied70 review, ruleBlock20 block, ruleReview30 review; allowed95 and
      // quiet10 allowed. Proposed (50/72): approvedButFraud75 blocks too; the rest stays.
      expect(signup).toEqual({
        type: "signup",
        screenings: 9,
        fraud: 3,
        legitimate: 3,
        now: {
          blocked: 3,
          reviewed: 4,
          fraud_blocked: 1,
          fraud_reviewed: 2,
          legitimate_blocked: 1,
          legitimate_reviewed: 1,
        },
        proposed: {
          blocked: 4,
          reviewed: 3,
          fraud_blocked: 2,
          fraud_reviewed: 1,
          legitimate_blocked: 1,
          legitimate_reviewed: 1,
        },
        now_threshold: { review: 65, block: 80 },
        proposed_threshold: { review: 50, block: 72 },
      });
      expect(result.types.find((x) => x.type === "login")).toMatchObject({
        screenings: 1,
        now: { blocked: 0, reviewed: 0 },
        proposed: { blocked: 0, reviewed: 1 },
        now_threshold: null,
        proposed_threshold: { review: 50, block: null },
      });
      expect(result.total).toMatchObject({ screenings: 10, fraud: 3, legitimate: 3 });
    });

    it("counts nothing of another merchant's, and saves nothing", async () => {
      const before = await t.prisma.scoreSettings.findMany({});
      const forB = await preview(b, { signup: { review: 0, block: 0 } });
      expect(forB.total).toMatchObject({ screenings: 2, fraud: 1, proposed: { blocked: 2 } });
      const forA = await preview(a, { signup: { review: 0, block: 0 } });
      expect(forA.total.screenings).toBe(10);
      expect(await t.prisma.scoreSettings.findMany({})).toEqual(before);
    });

    it("judges real screenings by their rules' own reasons, not by the score's", async () => {
      const m = await signedInMerchant(t, `real-${kind}@example.com`);
      const put = await m.api.json("/api/scoring/thresholds", {
        method: "PUT",
        body: { thresholds: { signup: { review: null, block: 0 } } },
      });
      expect(put.status).toBe(200);
      const backend = await backendOf(t, m);
      for (let n = 0; n < 4; n++) {
        const answer = await backend.decide({ type: "signup", user_id: `real-${n}` });
        // At the block threshold with one family of evidence behind it (no browser): held at review.
        expect(answer.decision).toBe("review");
        expect(answer.reasons.map((r) => r.rule)).toEqual(["risk_score"]);
        expect(answer.reasons[0]?.message).toMatch(
          /; held at review \(0\): evidence from one family only \(device\), a block needs two$/,
        );
      }
      const off = await preview(m, { signup: { review: null, block: null } });
      // "Now" is what the engine did (held, so reviewed), not a block read off the stored score.
      expect(off.total).toMatchObject({
        screenings: 4,
        now: { blocked: 0, reviewed: 4 },
        proposed: { blocked: 0, reviewed: 0 },
      });
    });
  });
});

function json(body: unknown): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
}
