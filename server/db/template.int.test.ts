/**
 * An empty data dir started from the build's template (a migrated data dir, copied) must be the
 * same database as one migrated from scratch: tables, columns, indexes, constraints and the
 * `_prisma_migrations` checksums.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "./database.ts";
import { migrateInChildProcess } from "./migrate-child.ts";
import { migrationNames } from "./migrate-names.ts";

const SCHEMA_QUERIES = {
  columns: `SELECT table_name, column_name, data_type, is_nullable, column_default
    FROM information_schema.columns WHERE table_schema = 'public'
    ORDER BY table_name, column_name`,
  indexes: `SELECT tablename, indexname, indexdef FROM pg_indexes
    WHERE schemaname = 'public' ORDER BY tablename, indexname`,
  constraints: `SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`,
  types: `SELECT t.typname, e.enumlabel FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
    ORDER BY t.typname, e.enumsortorder`,
  migrations: `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished
    FROM _prisma_migrations ORDER BY migration_name`,
};

async function describeSchema(db: Database) {
  const entries = await Promise.all(
    Object.entries(SCHEMA_QUERIES).map(async ([name, sql]) => [name, await db.sql.query(sql)]),
  );
  return Object.fromEntries(entries) as Record<keyof typeof SCHEMA_QUERIES, unknown[]>;
}

describe("embedded database template", () => {
  let root: string;
  let template: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "warden-template-"));
    template = join(root, "template");
    // As scripts/ensure-build.mjs writes dist/db-template.
    await migrateInChildProcess({ kind: "embedded", dir: template });
  }, 120_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("starts an empty data dir as the same database a migration from scratch makes", async () => {
    const fromTemplate = await openDatabase({
      kind: "embedded",
      dataDir: join(root, "a"),
      template,
    });
    const migrated = await openDatabase({ kind: "embedded", dataDir: join(root, "b") });
    try {
      expect(fromTemplate.applied).toEqual([]);
      expect(migrated.applied).toEqual(await migrationNames());
      const [copied, fresh] = [await describeSchema(fromTemplate), await describeSchema(migrated)];
      expect(copied.migrations).toHaveLength((await migrationNames()).length);
      expect(copied.indexes.length).toBeGreaterThan(10);
      expect(copied).toEqual(fresh);
    } finally {
      await fromTemplate.close();
      await migrated.close();
    }
  }, 180_000);

  it("leaves a data dir that already holds a database as it is", async () => {
    const dataDir = join(root, "c");
    const first = await openDatabase({ kind: "embedded", dataDir, template });
    await first.sql.query(`INSERT INTO "Account" ("id") VALUES ('kept')`);
    await first.close();
    const second = await openDatabase({ kind: "embedded", dataDir, template });
    try {
      expect(second.applied).toEqual([]);
      expect(await second.sql.query(`SELECT id FROM "Account"`)).toEqual([{ id: "kept" }]);
    } finally {
      await second.close();
    }
  }, 60_000);
});
