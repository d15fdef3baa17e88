/**
 * Real databases for tests: the embedded one always, and PostgreSQL too when
 * TEST_DATABASE_URL is set. Each is a fresh copy of the run's migrated template
 * (global-setup.ts), opened as production opens it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../server/db/database.ts";
import { adminQuery, dropDatabase } from "./admin-sql.ts";

export type DbKind = "embedded" | "postgres";

export const DB_KINDS: DbKind[] = process.env.TEST_DATABASE_URL
  ? ["embedded", "postgres"]
  : ["embedded"];

export async function openTestDatabase(kind: DbKind): Promise<Database> {
  return kind === "embedded" ? openEmbedded() : openPostgres();
}

/** A copy of the migrated data dir, opened with production's settings (16 MB of buffers). */
async function openEmbedded(): Promise<Database> {
  const dataDir = await mkdtemp(join(tmpdir(), "warden-db-"));
  const database = await openDatabase({
    kind: "embedded",
    dataDir,
    template: inject("embeddedTemplate"),
  });
  return {
    ...database,
    async close() {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function openPostgres(): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = inject("postgresTemplate");
  if (!adminUrl || !template) throw new Error("TEST_DATABASE_URL is not set");
  const name = `warden_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await cloneTemplate(adminUrl, template, name);
  // A server whose own time zone is not UTC (nor the tests' own): Warden's sessions run in UTC.
  await adminQuery(adminUrl, `ALTER DATABASE "${name}" SET timezone TO 'Asia/Kolkata'`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString() });
  return {
    ...database,
    async close() {
      await database.close();
      await dropDatabase(adminUrl, name);
    },
  };
}

/**
 * CREATE DATABASE … TEMPLATE fails while anything else is connected to the template (code
 * 55006); nothing should be, but a second worker's clone can briefly count as one: retry.
 */
async function cloneTemplate(adminUrl: string, template: string, name: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await adminQuery(adminUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    } catch (error) {
      if ((error as { code?: string }).code !== "55006" || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}
