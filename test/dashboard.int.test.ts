/**
 * The transaction dashboard on both databases, through tRPC (session cookie, as the console
 * calls it) and GET /api/dashboard (bearer token): order, keyset pages, filters, search,
 * limits, the 30-day summary, placeholder rows, and one merchant never seeing another's rows.
 * Rows are inserted directly: how webhooks produce them is tested with the receiver.
 */
// biome-ignore-all lint/suspicious/noExplicitAny: the tests read raw JSON bodies.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Prisma } from "../server/db/generated/client.ts";
import type {
  DashboardPage,
  DashboardRow,
  DashboardSummary,
} from "../shared/schemas/transaction.ts";
import { DB_KINDS } from "./helpers/databases.ts";
import { TestClient } from "./helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "./helpers/merchants.ts";
import { startTestApp, type TestApp, testClock } from "./helpers/test-app.ts";

const NOW = Date.UTC(2026, 2, 15, 12, 0, 0);
const T = NOW / 1000;
const DAY = 86_400;

type Row = Prisma.TransactionCreateManyInput;

function row(accountId: string, chargeId: string, fields: Partial<Row> = {}): Row {
  return {
    accountId,
    chargeId,
    hasCharge: true,
    amount: 1000,
    currency: "usd",
    email: `${chargeId.toLowerCase()}@example.com`,
    created: T - 60,
    status: "succeeded",
    captured: true,
    outcome: "succeeded",
    outcomeType: "authorized",
    riskLevel: "normal",
    riskScore: 10,
    ...fields,
  };
}

/** Merchant A's charges: one of each kind the dashboard must show differently. */
function accountARows(accountId: string): Row[] {
  return [
    row(accountId, "chAliceOk", {
      amount: 1999,
      email: "alice@example.com", // stored lowercased, as the webhook path stores it
      created: T - 100,
      riskScore: 12,
      paymentIntentId: "pi_alice",
    }),
    row(accountId, "chRadarBlocked", {
      status: "failed",
      captured: false,
      outcome: "blocked",
      outcomeType: "blocked",
      outcomeReason: "highest_risk_level",
      riskLevel: "highest",
      riskScore: 91,
      blockedBy: "stripe",
      email: "mallory@fraud.test",
      created: T - 200,
    }),
    row(accountId, "chRuleRefund", {
      amount: 5000,
      amountRefunded: 5000,
      refunded: true,
      outcome: "blocked",
      riskLevel: "elevated",
      riskScore: 82,
      blockedBy: "custom_rule",
      ruleReason: "risk score 82 above threshold 70",
      actionKind: "refund",
      actionStatus: "failed",
      actionError: "Your card was declined.",
      email: "alina@example.com",
      created: T - 300,
    }),
    // Same second as chRuleRefund: the charge id breaks the tie.
    row(accountId, "chYen", { amount: 1500, currency: "jpy", created: T - 300, email: null }),
    row(accountId, "chFailed", {
      status: "failed",
      captured: false,
      outcome: "failed",
      outcomeReason: "",
      created: T - 2 * DAY,
    }),
    row(accountId, "chOld", { created: T - 40 * DAY }),
    // An early fraud warning whose charge has not arrived: never a dashboard row.
    row(accountId, "chPlaceholder", { hasCharge: false, created: T - 50 }),
    // Merchant B holds a charge with the same id; each sees only its own.
    row(accountId, "chShared", { amount: 111, created: T - 3 * DAY }),
  ];
}

/** Charge ids newest first, as the dashboard orders them. */
function newestFirst(rows: Row[]): string[] {
  return rows
    .filter((r) => r.hasCharge)
    .sort((a, b) =>
      a.created !== b.created
        ? (b.created ?? 0) - (a.created ?? 0)
        : a.chargeId < b.chargeId
          ? 1
          : -1,
    )
    .map((r) => r.chargeId);
}

describe.each(DB_KINDS)("transaction dashboard on %s", (kind) => {
  let t: TestApp;
  let a: Merchant;
  let b: Merchant;
  let c: Merchant;
  let aRows: Row[];
  let cRows: Row[];

  const list = async (m: Merchant, input: Record<string, unknown> = {}) => {
    const result = await m.browser.query<DashboardPage>("dashboard.list", input);
    if (!result.ok) throw new Error(`dashboard.list failed: ${result.error.message}`);
    return result.data;
  };
  const ids = (page: { items: DashboardRow[] }) => page.items.map((item) => item.id);

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: testClock(NOW) });
    [a, b, c] = await Promise.all([
      signedInMerchant(t, "a-dash@example.com"),
      signedInMerchant(t, "b-dash@example.com"),
      signedInMerchant(t, "c-dash@example.com"),
    ]);
    aRows = accountARows(a.accountId);
    // 250 charges in groups of seven sharing one second, so page edges fall inside a group.
    cRows = Array.from({ length: 250 }, (_, i) =>
      row(c.accountId, `ch${String(i).padStart(4, "0")}x`, {
        created: T - 1000 - Math.floor(i / 7),
        outcome: i % 5 === 0 ? "blocked" : "succeeded",
        blockedBy: i % 5 === 0 ? "stripe" : null,
      }),
    );
    await t.prisma.transaction.createMany({
      data: [
        ...aRows,
        ...cRows,
        row(b.accountId, "chShared", { amount: 222, email: "alice@example.com", created: T - 10 }),
        row(b.accountId, "chBobOnly", { email: "bob@example.com", created: T - 20 }),
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists newest first, formats each field, and leaves placeholder rows out", async () => {
    const page = await list(a);
    expect(ids(page)).toEqual(newestFirst(aRows));
    expect(ids(page)).not.toContain("chPlaceholder");
    expect(page.nextCursor).toBeNull();
    const byId = Object.fromEntries(page.items.map((item) => [item.id, item]));
    expect(byId.chAliceOk).toEqual({
      id: "chAliceOk",
      amount: 19.99,
      currency: "usd",
      email: "alice@example.com",
      created: T - 100,
      outcome: "succeeded",
      reason: null,
      outcome_risk_level: "normal",
      outcome_risk_score: 12,
      blocked_by: null,
      blocked_by_rules: [],
      action: null,
      livemode: false,
      payment_intent: "pi_alice",
    });
    expect(byId.chRadarBlocked).toMatchObject({
      outcome: "blocked",
      reason: "highest_risk_level",
      blocked_by: "Stripe",
    });
    expect(byId.chRuleRefund).toMatchObject({
      amount: 50,
      reason: "risk score 82 above threshold 70",
      blocked_by: "Custom Rule",
      // Acted on before the rule's key was kept: "Custom Rule" alone.
      blocked_by_rules: [],
      action: { kind: "refund", status: "failed", error: "Your card was declined." },
    });
    expect(byId.chYen).toMatchObject({ amount: 1500, currency: "jpy", email: null });
    expect(byId.chFailed?.reason).toBeNull();
  });

  it("pages by keyset through equal timestamps without duplicates or gaps", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: DashboardPage = await list(c, { limit: 40, cursor });
      expect(page.items.length).toBeLessThanOrEqual(40);
      seen.push(...ids(page));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBe(7);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(newestFirst(cRows));
  });

  it("pages a filtered list the same way", async () => {
    const blocked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: DashboardPage = await list(c, { limit: 9, cursor, outcome: "blocked" });
      blocked.push(...ids(page));
      cursor = page.nextCursor;
    } while (cursor);
    expect(blocked).toEqual(newestFirst(cRows.filter((r) => r.outcome === "blocked")));
  });

  it.each([
    [{ outcome: "blocked" }, ["chRadarBlocked", "chRuleRefund"]],
    [{ outcome: "failed" }, ["chFailed"]],
    [{ outcome: "disputed" }, []],
    [{ riskLevel: "elevated" }, ["chRuleRefund"]],
    [{ riskLevel: "highest" }, ["chRadarBlocked"]],
    [{ blockedBy: "stripe" }, ["chRadarBlocked"]],
    [{ blockedBy: "custom_rule" }, ["chRuleRefund"]],
    [{ blockedBy: "none" }, ["chAliceOk", "chYen", "chFailed", "chShared", "chOld"]],
    [{ outcome: "blocked", riskLevel: "highest" }, ["chRadarBlocked"]],
    [{ search: "chRuleRefund" }, []], // not a Stripe id shape, so read as an email prefix
    [{ search: "ALI" }, ["chAliceOk", "chRuleRefund"]],
    [{ search: "alice@example.com" }, ["chAliceOk"]],
    [{ search: "mallory" }, ["chRadarBlocked"]],
    [{ search: "%" }, []],
    [{ search: "_lice" }, []],
    [{ search: "a\\\\" }, []],
    [{ search: "   " }, newestFirst(accountARows("x"))],
  ])("filters %j", async (filter, expected) => {
    expect(ids(await list(a, filter))).toEqual(expected);
  });

  it("finds a charge by its exact Stripe id", async () => {
    await t.prisma.transaction.create({
      data: row(a.accountId, "ch_3PzRealShape", { created: T - 5 * DAY }),
    });
    expect(ids(await list(a, { search: "ch_3PzRealShape" }))).toEqual(["ch_3PzRealShape"]);
    expect(ids(await list(a, { search: "ch_3PzReal" }))).toEqual([]);
    expect(ids(await list(b, { search: "ch_3PzRealShape" }))).toEqual([]);
    await t.prisma.transaction.delete({
      where: { accountId_chargeId: { accountId: a.accountId, chargeId: "ch_3PzRealShape" } },
    });
  });

  it("returns the spec's array from GET /api/dashboard: newest first, limit 100 by default", async () => {
    const all = newestFirst(cRows);
    const plain = await c.api.json<any[]>("/api/dashboard");
    expect(plain.status).toBe(200);
    expect(plain.body.map((r) => r.id)).toEqual(all.slice(0, 100));
    expect(Object.keys(plain.body[0]).sort()).toEqual(
      [
        "amount",
        "blocked_by",
        "created",
        "currency",
        "email",
        "id",
        "outcome",
        "outcome_risk_level",
        "outcome_risk_score",
        "reason",
      ].sort(),
    );
    expect((await c.api.json<any[]>("/api/dashboard?limit=1000")).body.length).toBe(250);
    expect((await c.api.json<any[]>("/api/dashboard?limit=7")).body.map((r) => r.id)).toEqual(
      all.slice(0, 7),
    );
    const aRest = (await a.api.json<any[]>("/api/dashboard")).body;
    expect(aRest.map((r) => r.id)).toEqual(newestFirst(aRows));
    expect(aRest.find((r) => r.id === "chRuleRefund")).toMatchObject({
      amount: 50,
      blocked_by: "Custom Rule",
      outcome_risk_level: "elevated",
      outcome_risk_score: 82,
    });
  });

  it.each(["0", "1001", "abc", "1.5", "-3", ""])(
    "answers GET /api/dashboard?limit=%s with a 400 naming limit",
    async (limit) => {
      const response = await c.api.json<any>(`/api/dashboard?limit=${limit}`);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe("BAD_REQUEST");
      expect(response.body.error.issues.map((i: any) => i.path)).toEqual(["limit"]);
      expect(response.body.error.message).toMatch(/limit/);
    },
  );

  it("rejects a tRPC limit over 1000 and a forged cursor, naming the field", async () => {
    const tooMany = await c.browser.query("dashboard.list", { limit: 1001 });
    expect(tooMany).toMatchObject({ ok: false, status: 400 });
    if (!tooMany.ok) expect(tooMany.error.data.issues?.[0]?.path).toBe("limit");
    // PostgreSQL refuses NUL in text: a search or risk level holding one is a 400, not a 500.
    for (const field of ["search", "riskLevel"]) {
      const nul = await c.browser.query("dashboard.list", { [field]: "ali\u0000ce" });
      expect(nul, field).toMatchObject({ ok: false, status: 400 });
      if (!nul.ok) expect(nul.error.data.issues?.[0]?.path).toBe(field);
    }
    const forged = await c.browser.query("dashboard.list", { cursor: "bm9wZQ" });
    expect(forged).toMatchObject({ ok: false, status: 400 });
    if (!forged.ok) expect(forged.error.data.issues?.[0]?.path).toBe("cursor");
    expect((await list(c, { limit: 1000 })).items.length).toBe(250);
    expect((await list(c)).items.length).toBe(50);
  });

  it("sums the last 30 days: totals, refunds per currency, allowed and blocked per day", async () => {
    const summary = (await a.browser.query<DashboardSummary>("dashboard.summary")) as any;
    expect(summary.ok).toBe(true);
    const data: DashboardSummary = summary.data;
    // chOld is 40 days old and chPlaceholder has no charge: neither counts.
    expect(data).toMatchObject({ charges: 6, blocked: 2, since: "2026-02-14" });
    expect(data.refunded).toEqual([{ currency: "usd", amount: 50 }]);
    expect(data.days).toHaveLength(30);
    expect(data.days[0]?.day).toBe("2026-02-14");
    expect(data.days.at(-1)).toEqual({ day: "2026-03-15", allowed: 2, blocked: 2 });
    expect(data.days.find((d) => d.day === "2026-03-13")).toEqual({
      day: "2026-03-13",
      allowed: 1,
      blocked: 0,
    });
    expect(data.days.find((d) => d.day === "2026-03-12")).toEqual({
      day: "2026-03-12",
      allowed: 1,
      blocked: 0,
    });
    const total = data.days.reduce((sum, d) => sum + d.allowed + d.blocked, 0);
    expect(total).toBe(data.charges);

    const cSummary = (await c.browser.query<DashboardSummary>("dashboard.summary")) as any;
    expect(cSummary.data).toMatchObject({ charges: 250, blocked: 50, refunded: [] });
  });

  it("never shows merchant A's rows to merchant B, by any path", async () => {
    const page = await list(b);
    expect(ids(page)).toEqual(["chShared", "chBobOnly"]);
    expect(page.items[0]?.amount).toBe(2.22);
    expect(ids(await list(b, { search: "alice" }))).toEqual(["chShared"]);
    expect(ids(await list(b, { search: "mallory" }))).toEqual([]);
    expect(ids(await list(b, { outcome: "blocked" }))).toEqual([]);
    expect(ids(await list(b, { blockedBy: "custom_rule" }))).toEqual([]);
    // A cursor made on A's dashboard only positions B's own list.
    const aFirst = await list(a, { limit: 1 });
    expect(aFirst.nextCursor).toBeTruthy();
    expect(ids(await list(b, { cursor: aFirst.nextCursor }))).toEqual([]);
    const rest = await b.api.json<any[]>("/api/dashboard?limit=1000");
    expect(rest.body.map((r) => r.id)).toEqual(["chShared", "chBobOnly"]);
    const summary = (await b.browser.query<DashboardSummary>("dashboard.summary")) as any;
    expect(summary.data).toMatchObject({ charges: 2, blocked: 0, refunded: [] });
    // And A still sees its own chShared, not B's.
    const aShared = (await list(a, { search: "chshared" })).items;
    expect(aShared.map((r) => r.amount)).toEqual([1.11]);
  });

  it("documents GET /api/dashboard's limit in the OpenAPI document", async () => {
    const doc = await new TestClient(t.baseUrl, {}).json<any>("/api/openapi.json");
    const get = doc.body.paths["/api/dashboard"].get;
    expect(get.parameters).toContainEqual(
      expect.objectContaining({
        name: "limit",
        in: "query",
        schema: expect.objectContaining({ minimum: 1, maximum: 1000, default: 100 }),
      }),
    );
    expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(["200", "400", "401"]));
    expect(get.responses["200"].content["application/json"].schema.type).toBe("array");
  });

  it("asks for a session on both transports", async () => {
    const anonymous = new TestClient(t.baseUrl, {});
    expect((await anonymous.json("/api/dashboard")).status).toBe(401);
    expect(await new TestClient(t.baseUrl).query("dashboard.list", {})).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(await new TestClient(t.baseUrl).query("dashboard.summary")).toMatchObject({
      ok: false,
      status: 401,
    });
  });
});
