/**
 * The databases keep their table statistics up to date (auto-analyze.ts): without
 * them the plan kept for the Stripe read looked each charge up through the card index,
 * reading the account's every row (the webhook rate fell from 618 to 213 events/s as the table
 * grew). Shown here on the real statement, as PostgreSQL keeps it (a generic plan).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DB_KINDS, openTestDatabase } from "../../test/helpers/databases.ts";
import { READ } from "../modules/stripe/ingest/stripe-events.sql.ts";
import {
  analyzedEmpty,
  analyzeGrown,
  analyzeStatement,
  EMPTY_RETRIES,
  staleTables,
} from "./auto-analyze.ts";
import type { Database } from "./database.ts";
import { copyTemplate, openPGlite } from "./embedded.ts";

describe("which tables are analyzed", () => {
  it("those grown by more than a tenth since their statistics, never-analyzed ones included", () => {
    expect(
      staleTables([
        { name: "young", analyzed: 0, pages: 1 },
        { name: "empty", analyzed: 0, pages: 0 },
        { name: "grown", analyzed: 100, pages: 111 },
        { name: "steady", analyzed: 100, pages: 110 },
        { name: "shrunk", analyzed: 100, pages: 50 },
      ]).map(({ name }) => name),
    ).toEqual(["young", "grown"]);
  });

  it("past 10 MB, only those that doubled (each ANALYZE pauses the embedded database)", () => {
    expect(
      staleTables([
        { name: "largeGrownATenth", analyzed: 2_000, pages: 2_300 },
        { name: "largeDoubled", analyzed: 2_000, pages: 4_001 },
        { name: "justBelow", analyzed: 1_279, pages: 1_500 },
      ]).map(({ name }) => name),
    ).toEqual(["largeDoubled", "justBelow"]);
  });
});

describe("tables analyzed while their rows were not committed", () => {
  it("are analyzed again while they look empty, a few times at most", () => {
    const sizes = [
      // ANALYZE ran during a bulk insert: its pages, none of its rows.
      { name: "raced", analyzed: 4_167, pages: 4_167, tuples: 0 },
      { name: "full", analyzed: 4_167, pages: 4_167, tuples: 100_000 },
      { name: "neverAnalyzed", analyzed: 0, pages: 0, tuples: -1 },
    ];
    expect(analyzedEmpty(sizes, new Map()).map(({ name }) => name)).toEqual(["raced"]);
    expect(analyzedEmpty(sizes, new Map([["raced", EMPTY_RETRIES]]))).toEqual([]);
  });
});

describe("what is analyzed", () => {
  it("the indexed columns only (the JSON documents cost the most and no plan reads them)", () => {
    expect(
      analyzeStatement({ name: "Screening", analyzed: 0, pages: 9, indexed: ["id", "email"] }),
    ).toBe('ANALYZE "Screening" ("id", "email")');
    expect(analyzeStatement({ name: "Plain", analyzed: 0, pages: 9, indexed: [] })).toBe(
      'ANALYZE "Plain"',
    );
  });
});

describe("the embedded database's statistics", () => {
  // PGlite on a copy of the migrated template, opened without openDatabase: its own analyzer
  // (every few seconds) would otherwise race the plans compared here.
  let dir: string;
  let db: PGlite;
  const accountId = "analyze-account";

  /** `count` charges from number `from` on: each of its own card and email, as a shop's are. */
  const addCharges = (from: number, count: number) =>
    db.query(
      `INSERT INTO "Transaction" ("accountId", "chargeId", "email", "cardFingerprint", "created", "updatedAt")
       SELECT $1, 'ch_' || n, 'buyer' || n || '@example.com', 'fp_' || n, 1790000000 + n, now()
       FROM generate_series($2::int, $2::int + $3::int - 1) AS n`,
      [accountId, from, count],
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "warden-analyze-"));
    await copyTemplate(inject("embeddedTemplate"), join(dir, "pgdata"));
    db = await openPGlite(join(dir, "pgdata"));
    await db.query(`INSERT INTO "Account" ("id") VALUES ($1)`, [accountId]);
    await db.query("SET plan_cache_mode = force_generic_plan");
    await db.query(`PREPARE stripe_read(json) AS ${READ.replace("$1::json", "$1")}`);
  });

  afterAll(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("runs with the settings openPGlite gives it: a small buffer pool, WAL segments not zero-filled", async () => {
    // wal_init_zero off: a new 16 MB segment is not written full of zeroes on the one thread
    // (embedded.ts; issue 44, pauses of 20-50 ms a segment).
    const setting = async (name: string) =>
      (
        await db.query<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = $1", [
          name,
        ])
      ).rows[0]?.setting;
    expect(await setting("wal_init_zero")).toBe("off");
    expect(await setting("shared_buffers")).toBe("2048"); // 8 kB pages: 16 MB
  });

  /** How the kept plan reads charge 17, as EXPLAIN ANALYZE prints it. */
  async function readPlan() {
    const item = { accountId, eventId: "evt_1", chargeId: "ch_17", card: "fp_17" };
    const items = [{ ...item, email: "buyer17@example.com", since: 0, hourAgo: 0 }];
    const { rows } = await db.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE stripe_read('${JSON.stringify(items)}')`,
    );
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  }

  it("plans a young table's statement again once it has grown, and finds a charge by its key", async () => {
    // A new install: the statement is planned (and the plan kept) while the table is tiny.
    await addCharges(1, 20);
    await readPlan();
    await addCharges(21, 3000);
    const before = await readPlan();
    // The symptom: the charge found by filtering the account's rows, not through its key.
    expect(before).toMatch(/Rows Removed by Filter: [1-9]\d{2,}/);

    expect(await analyzeGrown(db)).toContain("Transaction");
    // Its statistics cover the indexed columns, not the others.
    const { rows } = await db.query<{ attname: string }>(
      `SELECT attname FROM pg_stats WHERE tablename = 'Transaction' ORDER BY attname`,
    );
    const analyzed = rows.map((row) => row.attname);
    expect(analyzed).toEqual(expect.arrayContaining(["accountId", "chargeId", "cardFingerprint"]));
    expect(analyzed).not.toContain("ruleReason");
    const after = await readPlan();
    expect(after).toMatch(/Index Scan using "Transaction_pkey"/);
    expect(after).not.toMatch(/Rows Removed by Filter: [1-9]\d{2,}/);
    // Analyzed: nothing more to do until it grows again.
    expect(await analyzeGrown(db)).not.toContain("Transaction");
  });
});

describe.skipIf(!DB_KINDS.includes("postgres"))("on PostgreSQL", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase("postgres");
  });
  afterAll(async () => {
    await db?.close();
  });

  it("analyzes a table that grew before autovacuum gets to it, with the usual target", async () => {
    const query = { query: async <T>(text: string) => ({ rows: await db.sql.query<T>(text) }) };
    const account = await db.prisma.account.create({ data: {} });
    await db.sql.query(
      `INSERT INTO "Transaction" ("accountId", "chargeId", "email", "updatedAt")
       SELECT $1, 'ch_' || n, 'buyer' || n || '@example.com', now() FROM generate_series(1, 2000) AS n`,
      [account.id],
    );
    // This server's own check (every few seconds) may have been first: either way, analyzed.
    await analyzeGrown(query, false);
    const [stats] = await db.sql.query<{ reltuples: number }>(
      `SELECT reltuples FROM pg_class WHERE relname = 'Transaction'`,
    );
    expect(Number(stats?.reltuples)).toBeGreaterThanOrEqual(2000);
    expect(await analyzeGrown(query, false)).not.toContain("Transaction");
  });
});
