/**
 * One form per address and the Screenings page's search, over real HTTP on the embedded
 * database and on PostgreSQL: IPv4-mapped IPv6 (::ffff:127.0.0.1, ::ffff:7f00:1) from the
 * screening API, the browser collector and the allow list is stored and shown as IPv4, the
 * migration rewrites rows stored before, and the search finds part of an email (any case), the
 * start of a user id or of an IP, with `%` and `_` meaning themselves.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AllowEntryView } from "../../shared/schemas/allow-list.ts";
import type { ScreeningRow } from "../../shared/schemas/screening.ts";
import { allowOrigins, humanSignals, publishableKeyOf, SHOP } from "../helpers/collector.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

const MIGRATIONS = join(import.meta.dirname, "../../prisma/migrations");

async function search(merchant: Merchant, text: string): Promise<ScreeningRow[]> {
  const res = await merchant.browser.query<{ items: ScreeningRow[] }>("screenings.list", {
    search: text,
    limit: 200,
  });
  if (!res.ok) throw new Error(`search ${text}: ${JSON.stringify(res)}`);
  return res.data.items;
}

describe.each(DB_KINDS)("one form per address, and search (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // The tests' proxy: X-Forwarded-For names the browser, as a dual-stack proxy would write it.
    t = await startTestApp(kind, { env: { TRUST_PROXY: "127.0.0.1" } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("stores and shows ::ffff:127.0.0.1 and ::ffff:7f00:1 as 127.0.0.1, found by 127.0.0.1", async () => {
    const merchant = await signedInMerchant(t, `mapped-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    for (const ip of ["::ffff:127.0.0.1", "::FFFF:7f00:1", "127.0.0.1", "198.51.100.1"]) {
      await backend.decide({ type: "login", ip, user_id: `from ${ip}` });
    }
    const stored = await t.prisma.screening.findMany({
      where: { accountId: merchant.accountId },
      select: { ip: true, input: true },
    });
    expect(stored.map((row) => row.ip).sort()).toEqual([
      "127.0.0.1",
      "127.0.0.1",
      "127.0.0.1",
      "198.51.100.1",
    ]);
    expect(stored.map((row) => (row.input as { ip: string }).ip)).not.toContain("::ffff:127.0.0.1");

    const found = await search(merchant, "127.0.0.1");
    expect(found.map((row) => row.user_id).sort()).toEqual([
      "from 127.0.0.1",
      "from ::FFFF:7f00:1",
      "from ::ffff:127.0.0.1",
    ]);
    expect(found.map((row) => row.ip)).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1"]);
    // Searched in the mapped form, it finds the same rows.
    expect(await search(merchant, "::ffff:127.0.0.1")).toHaveLength(3);
  });

  it("stores the collector's ::ffff: address as IPv4", async () => {
    const merchant = await signedInMerchant(t, `collect-mapped-${kind}@example.com`);
    await allowOrigins(merchant, [SHOP]);
    const key = (await publishableKeyOf(merchant)).key;
    const collected = await fetch(`${t.baseUrl}/api/v1/collect?key=${key}`, {
      method: "POST",
      headers: {
        "content-type": "text/plain",
        origin: SHOP,
        "x-forwarded-for": "::ffff:198.51.100.23",
      },
      body: JSON.stringify(humanSignals()),
    });
    const { token } = (await collected.json()) as { token: string };
    expect(collected.status, token).toBe(200);
    const backend = await backendOf(t, merchant);
    await backend.decide({ type: "signup", user_id: "browser-only", signals: token });
    const [row] = await search(merchant, "198.51.100.23");
    expect(row).toMatchObject({ user_id: "browser-only", collect_ip: "198.51.100.23" });
  });

  it("stores an allow-list address or range written as IPv4-mapped as IPv4", async () => {
    const merchant = await signedInMerchant(t, `allow-mapped-${kind}@example.com`);
    const add = (value: string) =>
      merchant.api.json<AllowEntryView>("/api/allowlist", { body: { kind: "ip_cidr", value } });
    const one = await add("::ffff:203.0.113.9");
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.value).toBe("203.0.113.9");
    expect((await add("::ffff:cb00:7100/120")).body.value).toBe("203.0.113.0/24");
    expect((await add("2001:DB8:0:0::/32")).body.value).toBe("2001:db8::/32");
  });

  it("finds part of an email in any case, the start of a user id or an IP; % and _ are literal", async () => {
    const merchant = await signedInMerchant(t, `search-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    const events = [
      { user_id: "cust_42", email: "x@mailinator.com", ip: "203.0.113.5" },
      { user_id: "cust_43", email: "Y.Z@Mailinator.COM", ip: "203.0.113.77" },
      { user_id: "custx4", email: "a_b@gmail.com", ip: "203.0.114.5" },
      { user_id: "cust_5", email: "axb@gmail.com", ip: "2001:db8::5" },
      { user_id: "100%", email: "plain@example.org", ip: "198.51.100.9" },
    ];
    for (const event of events) await backend.decide({ type: "signup", ...event });
    const ids = async (text: string) => (await search(merchant, text)).map((r) => r.user_id).sort();

    expect(await ids("mailinator")).toEqual(["cust_42", "cust_43"]);
    expect(await ids("MAILINATOR.com")).toEqual(["cust_42", "cust_43"]);
    expect(await ids("y.z@")).toEqual(["cust_43"]);
    expect(await ids("203.0.113.")).toEqual(["cust_42", "cust_43"]);
    expect(await ids("2001:DB8:")).toEqual(["cust_5"]);
    expect(await ids("cust_4")).toEqual(["cust_42", "cust_43"]);
    // A user id matches by its start only.
    expect(await ids("ust_4")).toEqual([]);
    // `_` is not "any character" (a_b, not axb; cust_4, not custx4) and `%` is not "anything".
    expect(await ids("a_b")).toEqual(["custx4"]);
    expect(await ids("%")).toEqual([]);
    expect(await ids("100%")).toEqual(["100%"]);
    // Another merchant's screenings are never found.
    const other = await signedInMerchant(t, `search-other-${kind}@example.com`);
    expect(await search(other, "mailinator")).toEqual([]);
  });

  it("answers the start of a user id or an IP from a prefix index, not a trigram index", async () => {
    // The shape Prisma writes for startsWith (a text cast, LIKE with a bound start), planned
    // with sequential scans priced out: the start becomes a range of the index (~>=~, ~<~) only
    // where the index's opclass serves LIKE 'start%'. Issue 44: one index entry a screening
    // instead of a trigram index's dozen.
    const plan = (where: string) =>
      t.database.sql.transaction(async (query) => {
        await query("SET LOCAL enable_seqscan = off");
        const rows = await query<{ "QUERY PLAN": string }>(
          `EXPLAIN (COSTS OFF) SELECT "id" FROM "Screening" WHERE ${where}`,
        );
        return rows.map((row) => row["QUERY PLAN"]).join("\n");
      });
    const userIdPlan = await plan(`"userId"::text LIKE 'cust\\_4%'`);
    expect(userIdPlan).toContain("Screening_userId_prefix");
    expect(userIdPlan).toContain(`"userId" ~>=~ 'cust_4'`);
    const ipPlan = await plan(`"ip"::text LIKE '2001:db8:%'`);
    expect(ipPlan).toContain("Screening_ip_prefix");
    expect(ipPlan).toContain(`ip ~>=~ '2001:db8:'`);
  });

  it("rewrites IPv4-mapped addresses stored before (the migration's statements)", async () => {
    const merchant = await signedInMerchant(t, `migration-${kind}@example.com`);
    const dir = (await readdir(MIGRATIONS)).find((name) => name.endsWith("_screening_search"));
    const sql = await readFile(join(MIGRATIONS, `${dir}`, "migration.sql"), "utf8");
    const updates = sql
      .split(/;\s*\n/)
      .map((statement) => statement.replace(/^(\s*--[^\n]*\n)*/, "").trim())
      .filter((statement) => statement.startsWith("UPDATE"));
    expect(updates).toHaveLength(2);

    const rows: [string | null, string | null][] = [
      ["::ffff:127.0.0.1", "::ffff:7f00:1"],
      ["0:0:0:0:0:FFFF:cb00:7107", null],
      ["::ffff:0:7f00:1", "2001:db8::1"],
      ["203.0.113.8", "::ffff:203.0.113.8"],
    ];
    await t.prisma.screening.createMany({
      data: rows.map(([ip, collectIp], i) => ({
        accountId: merchant.accountId,
        type: "login",
        userId: `old-${i}`,
        ip,
        collectIp,
        decision: "allow",
        score: 0,
        rules: [],
        reasons: [],
        monitored: [],
        input: { type: "login", ...(ip ? { ip } : {}) },
        ...(collectIp ? { signals: { collect_ip: collectIp } } : {}),
      })),
    });
    for (const statement of updates) await t.prisma.$executeRawUnsafe(statement);

    const after = await t.prisma.screening.findMany({
      where: { accountId: merchant.accountId },
      orderBy: { userId: "asc" },
      select: { ip: true, collectIp: true, input: true, signals: true },
    });
    expect(after).toEqual([
      {
        ip: "127.0.0.1",
        collectIp: "127.0.0.1",
        input: { type: "login", ip: "127.0.0.1" },
        signals: { collect_ip: "127.0.0.1" },
      },
      {
        ip: "203.0.113.7",
        collectIp: null,
        input: { type: "login", ip: "203.0.113.7" },
        signals: null,
      },
      // IPv4-translated (::ffff:0:0:0/96) is not IPv4-mapped: left as it was.
      {
        ip: "::ffff:0:7f00:1",
        collectIp: "2001:db8::1",
        input: { type: "login", ip: "::ffff:0:7f00:1" },
        signals: { collect_ip: "2001:db8::1" },
      },
      {
        ip: "203.0.113.8",
        collectIp: "203.0.113.8",
        input: { type: "login", ip: "203.0.113.8" },
        signals: { collect_ip: "203.0.113.8" },
      },
    ]);
  });
});
