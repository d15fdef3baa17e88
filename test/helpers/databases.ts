/**
 * Real databases for tests: the embedded one always, and PostgreSQL too when
 * TEST_DATABASE_URL is set (each test file gets its own fresh database there).
 */
import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../server/db/database.ts";
import { pgliteExtensions } from "../../server/db/embedded.ts";

export type DbKind = "embedded" | "postgres";

export const DB_KINDS: DbKind[] = process.env.TEST_DATABASE_URL
  ? ["embedded", "postgres"]
  : ["embedded"];

export async function openTestDatabase(kind: DbKind): Promise<Database> {
  if (kind === "embedded") {
    const tar = await readFile(inject("embeddedTemplate"));
    const pglite = await PGlite.create({
      loadDataDir: new Blob([tar]),
      extensions: await pgliteExtensions(),
    });
    return openDatabase({ kind: "embedded", pglite });
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `warden_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  // A server whose own time zone is not UTC (nor the tests' own): Warden's sessions run in UTC.
  await admin.query(`ALTER DATABASE "${name}" SET timezone TO 'Asia/Kolkata'`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString() });
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await dropper.end();
    },
  };
}
