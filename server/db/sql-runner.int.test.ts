/**
 * Prepared statements (sql-runner.ts) on both databases: a name is parsed once (per
 * connection on PostgreSQL; embedded, by protocol messages PGlite's API does not send itself)
 * and its values go as parameters. The test sends hostile values through both and requires
 * them back byte for byte, and checks that a failing statement keeps nothing and leaves the
 * name usable.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS, openTestDatabase } from "../../test/helpers/databases.ts";
import type { Database } from "./database.ts";

const TABLE = `CREATE TABLE "BatchProbe" (
  "id" serial PRIMARY KEY, "label" text NOT NULL, "n" integer, "flag" boolean,
  "at" timestamp(3), "doc" jsonb)`;

const INSERT = `INSERT INTO "BatchProbe" ("label", "n", "flag", "at", "doc")
  VALUES ($1, $2, $3, $4, $5) RETURNING "label", "n", "flag", "at", "doc"`;

const TWO_ROWS = `WITH "first" AS (INSERT INTO "BatchProbe" ("label") VALUES ($1) RETURNING 1)
  INSERT INTO "BatchProbe" ("label") SELECT $2::text FROM "first"`;

/** Strings a literal must survive: quotes, backslashes, placeholders, statement ends. */
const hostile = fc.oneof(
  fc.string({ unit: "binary" }).map((s) => s.replaceAll("\u0000", "")),
  fc.constantFrom(
    "'",
    "''",
    "\\",
    "\\'",
    '\'; DROP TABLE "BatchProbe"; --',
    "$1",
    "$$ $tag$",
    "E'\\x41'",
    "/* */ --",
    "naïve ☃ 🛡",
  ),
);

describe.each(DB_KINDS)("prepared statements (%s)", (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase(kind);
    await db.sql.query(TABLE);
  });
  afterAll(async () => {
    await db?.close();
  });

  it("returns every value as it was sent, whatever it holds", async () => {
    await fc.assert(
      fc.asyncProperty(
        hostile,
        fc.option(fc.integer({ min: -2_000_000_000, max: 2_000_000_000 })),
        fc.option(fc.boolean()),
        fc.option(fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true })),
        fc.option(fc.dictionary(hostile, hostile, { maxKeys: 3 })),
        async (label, n, flag, at, doc) => {
          const rows = await db.sql.prepared("probe-insert", INSERT, [label, n, flag, at, doc]);
          expect(rows).toEqual([{ label, n, flag, at, doc }]);
        },
      ),
      { numRuns: 60 },
    );
    // Nothing hostile ran as SQL: the table is still there, with exactly what was inserted.
    expect(await countRows(db)).toBeGreaterThanOrEqual(60);
  });

  it("keeps nothing of a statement that fails, and the name still works on every connection after it", async () => {
    const before = await countRows(db);
    // One statement, two rows: the second fails as it is written, so the first is not kept.
    await expect(
      db.sql.prepared("probe-two", TWO_ROWS, ["kept only with the second", null]),
    ).rejects.toThrow(/null value/);
    expect(await countRows(db)).toBe(before);
    // The name failed on its first use; it still works (embedded, it is parsed again).
    await db.sql.prepared("probe-two", TWO_ROWS, ["first of two", "second of two"]);
    expect(await countRows(db)).toBe(before + 2);
    await expect(
      db.sql.prepared("probe-insert", INSERT, ["bad", "not a number", null, null, null]),
    ).rejects.toThrow(/integer/);
    expect(await countRows(db)).toBe(before + 2);
    // Many at once: on PostgreSQL they spread over the pool's connections, each preparing it.
    const labels = Array.from({ length: 24 }, (_, i) => `after ${i}`);
    const rows = await Promise.all(
      labels.map((label, i) =>
        db.sql.prepared("probe-insert", INSERT, [label, i, null, null, null]),
      ),
    );
    expect(rows.map((r) => r[0]?.label)).toEqual(labels);
    expect(await countRows(db)).toBe(before + 2 + labels.length);
  });

  // The tests run with TZ=Asia/Tokyo and, on PostgreSQL, a database whose own time zone is
  // Asia/Kolkata (vitest.config.ts, test/helpers/databases.ts): a time that went out or came
  // back as local time would be hours off here.
  it("stores and reads times as UTC, as Prisma does, whatever the host's and the server's zone", async () => {
    const at = new Date("2026-11-24T12:00:00.250Z");
    const id = `acct-tz-${kind}`;
    await db.prisma.account.create({ data: { id, createdAt: at } });
    // Written by Prisma, read here; then written here, read by Prisma.
    const [read] = await db.sql.query<{ createdAt: Date; wall: string }>(
      `SELECT "createdAt", "createdAt"::text AS "wall" FROM "Account" WHERE "id" = $1`,
      [id],
    );
    expect(read).toEqual({ createdAt: at, wall: "2026-11-24 12:00:00.25" });
    const writers = [
      (text: string, params: unknown[]) => db.sql.query(text, params),
      (text: string, params: unknown[]) => db.sql.prepared("probe-tz", text, params),
    ];
    for (const [i, write] of writers.entries()) {
      const later = new Date(at.getTime() + (i + 1) * 3_600_000);
      await write(`UPDATE "Account" SET "createdAt" = $2 WHERE "id" = $1`, [id, later]);
      const account = await db.prisma.account.findUniqueOrThrow({ where: { id } });
      expect(account.createdAt).toEqual(later);
    }
    // The column's default (CURRENT_TIMESTAMP, in the session's zone) is UTC wall time too.
    const [fresh] = await db.sql.query<{ createdAt: Date }>(
      `INSERT INTO "Account" ("id") VALUES ($1) RETURNING "createdAt"`,
      [`${id}-default`],
    );
    expect(Math.abs((fresh?.createdAt.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
  });
});

async function countRows(db: Database): Promise<number> {
  const [row] = await db.sql.query<{ count: number }>(
    `SELECT count(*)::int AS "count" FROM "BatchProbe"`,
  );
  return row?.count ?? 0;
}
