/**
 * Batched transactions (sql-runner.ts) on both databases. On PostgreSQL a batch is one query
 * with its values written in as literals, so the test sends hostile values through it and
 * requires them back byte for byte, and checks that what a transaction does not commit is
 * not kept.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS, openTestDatabase } from "../../test/helpers/databases.ts";
import type { Database } from "./database.ts";
import { inlineStatement } from "./sql-runner.ts";

const TABLE = `CREATE TABLE "BatchProbe" (
  "id" serial PRIMARY KEY, "label" text NOT NULL, "n" integer, "flag" boolean,
  "at" timestamp(3), "doc" jsonb)`;

const INSERT = `INSERT INTO "BatchProbe" ("label", "n", "flag", "at", "doc")
  VALUES ($1, $2, $3, $4, $5) RETURNING "label", "n", "flag", "at", "doc"`;

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

describe.each(DB_KINDS)("batched transactions (%s)", (kind) => {
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
          const rows = await db.sql.batches(async (tx) => {
            const [inserted] = await tx.commit([
              { text: INSERT, params: [label, n, flag, at, doc] },
            ]);
            return inserted;
          });
          expect(rows).toEqual([{ label, n, flag, at, doc }]);
        },
      ),
      { numRuns: 60 },
    );
    // Nothing hostile ran as SQL: the table is still there, with exactly what was inserted.
    expect(await countRows(db)).toBeGreaterThanOrEqual(60);
  });

  it("keeps nothing a transaction did not commit: returned early, or failed in its last batch", async () => {
    const before = await countRows(db);
    const early = await db.sql.batches(async (tx) => {
      const [rows] = await tx.run([{ text: INSERT, params: ["not kept", 1, true, null, null] }]);
      return rows?.length;
    });
    expect(early).toBe(1);
    await expect(
      db.sql.batches(async (tx) => {
        await tx.run([{ text: INSERT, params: ["not kept either", 2, null, null, null] }]);
        // The second statement fails (n is an integer): the whole transaction goes.
        await tx.commit([
          { text: INSERT, params: ["nor this", 3, null, null, null] },
          { text: INSERT, params: ["bad", "not a number", null, null, null] },
        ]);
      }),
    ).rejects.toThrow(/integer/);
    expect(await countRows(db)).toBe(before);
    // The connection is usable afterwards (the failed transaction was rolled back).
    await db.sql.batches((tx) =>
      tx.commit([{ text: INSERT, params: ["after", 4, null, null, null] }]),
    );
    expect(await countRows(db)).toBe(before + 1);
  });
});

describe("statements sent with literals", () => {
  it("may hold only placeholders: a literal, comment or dollar quote in the text is refused", () => {
    for (const text of [
      `SELECT 'x' WHERE "a" = $1`,
      `SELECT $1 -- note`,
      `SELECT $1 /* note */`,
      `SELECT $$x$$, $1`,
      `SELECT $tag$x$tag$, $1`,
    ]) {
      expect(() => inlineStatement({ text, params: [1] })).toThrow(/may not hold/);
    }
  });

  it("names a missing value and refuses what PostgreSQL could not store", () => {
    expect(() => inlineStatement({ text: `SELECT $2`, params: [1] })).toThrow("no value for $2");
    expect(() => inlineStatement({ text: `SELECT $1`, params: ["a\u0000b"] })).toThrow(/NUL/);
    expect(() => inlineStatement({ text: `SELECT $1`, params: [Buffer.from("x")] })).toThrow(
      /binary/,
    );
  });

  it("writes values as node-postgres sends them, quoted", () => {
    expect(
      inlineStatement({
        text: `SELECT $1, $2, $3, $4, $5, $10`,
        params: ["it's", 42, true, null, { a: "b\\c" }, 6, 7, 8, 9, "ten"],
      }),
    ).toBe(`SELECT 'it''s', '42', 'true', NULL,  E'{"a":"b\\\\\\\\c"}', 'ten'`);
  });
});

async function countRows(db: Database): Promise<number> {
  const [row] = await db.sql.query<{ count: number }>(
    `SELECT count(*)::int AS "count" FROM "BatchProbe"`,
  );
  return row?.count ?? 0;
}
