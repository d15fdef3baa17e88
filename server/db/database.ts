/**
 * Opens the database the configuration names: embedded PGlite under DATA_DIR when there is
 * no DATABASE_URL, PostgreSQL through node-postgres otherwise. Pending migrations are applied
 * before the client is handed out, in both modes.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { type ChangeFeed, createLocalChangeFeed, createPostgresChangeFeed } from "./change-feed.ts";
import { PrismaClient } from "./generated/client.ts";
import { applyMigrations, migrationNames } from "./migrate.ts";
import { pgliteRunner, postgresRunner, type SqlRunner } from "./sql-runner.ts";

export type Database = {
  kind: "embedded" | "postgres";
  prisma: PrismaClient;
  /** Names of the migrations this open applied. */
  applied: string[];
  /** Plain SQL on the same database, for hot paths (see sql-runner.ts). */
  sql: SqlRunner;
  /** The PostgreSQL pool's connections (null when embedded), for the metrics. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /** A feed of settings changes: in-process when embedded, LISTEN/NOTIFY on PostgreSQL. */
  openChangeFeed(log: { warn(obj: object, msg: string): void }): ChangeFeed;
  close(): Promise<void>;
};

export class DatabaseUnavailableError extends Error {}

export type DatabaseOptions =
  | { kind: "embedded"; dataDir?: string; pglite?: PGlite }
  | { kind: "postgres"; url: string };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === "postgres") return openPostgres(options.url);
  let pglite = options.pglite;
  if (!pglite) {
    const dir = options.dataDir ? join(options.dataDir, "pgdata") : undefined;
    if (dir) await mkdir(dir, { recursive: true });
    pglite = await PGlite.create(dir);
  }
  const adapter = new PrismaPGlite(pglite);
  const owned = pglite;
  return finishOpen({
    kind: "embedded",
    adapter,
    sql: pgliteRunner(owned),
    migrate: () => applyMigrations(adapter),
    poolStats: () => null,
    openChangeFeed: createLocalChangeFeed,
    async closeDriver() {
      if (!owned.closed) await owned.close();
    },
  });
}

async function openPostgres(url: string): Promise<Database> {
  await checkReachable(url);
  const pool = new pg.Pool({ connectionString: url });
  // A connection PostgreSQL ends (failover, restart, pg_terminate_backend) can emit "error"
  // while checked out with no listener, which would end the process (seen in the fault
  // suite). With one on every connection, its query fails and the pool drops it instead.
  pool.on("connect", (client) => client.on("error", () => {}));
  pool.on("error", () => {});
  return finishOpen({
    kind: "postgres",
    adapter: new PrismaPg(pool),
    // The screening hot path shares the pool (and its error handling).
    sql: postgresRunner(pool),
    async migrate() {
      // Migrations run on one connection of their own, closed afterwards: the engine's
      // advisory lock is then taken and released in one session and never outlives the
      // migration (a pooled one kept it, and a second instance starting timed out waiting).
      const migrationPool = new pg.Pool({ connectionString: url, max: 1 });
      migrationPool.on("error", () => {});
      try {
        return await applyMigrations(new PrismaPg(migrationPool));
      } finally {
        await migrationPool.end();
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    openChangeFeed: (log) => createPostgresChangeFeed(url, log),
    async closeDriver() {
      await pool.end();
    },
  });
}

async function finishOpen(options: {
  kind: Database["kind"];
  adapter: SqlMigrationAwareDriverAdapterFactory;
  sql: SqlRunner;
  migrate: () => Promise<string[]>;
  poolStats: Database["poolStats"];
  openChangeFeed: Database["openChangeFeed"];
  closeDriver: () => Promise<void>;
}): Promise<Database> {
  const { kind, adapter, sql, poolStats, openChangeFeed, closeDriver } = options;
  const prisma = new PrismaClient({ adapter });
  // The schema engine (WebAssembly, a few hundred MB) is loaded only when a migration is
  // pending: most starts find the database up to date. (Once loaded it stays: the bindings
  // keep callbacks into it that outlive the migration, so dropping it crashes the process.)
  const applied = (await hasPendingMigrations(prisma)) ? await options.migrate() : [];
  return {
    kind,
    prisma,
    applied,
    sql,
    poolStats,
    openChangeFeed,
    async close() {
      await prisma.$disconnect();
      await closeDriver();
    },
  };
}

/** Whether a migration of the folder is not recorded as applied (or the table is missing). */
async function hasPendingMigrations(prisma: PrismaClient): Promise<boolean> {
  try {
    const rows = await prisma.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM "_prisma_migrations"
      WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    const applied = new Set(rows.map((row) => row.migration_name));
    return (await migrationNames()).some((name) => !applied.has(name));
  } catch {
    return true;
  }
}

/** Fails with "host:port: reason" so a wrong DATABASE_URL reads as one clear line. */
async function checkReachable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  const parsed = new URL(url);
  const where = `${parsed.hostname || "localhost"}:${parsed.port || "5432"}`;
  try {
    await client.connect();
    await client.query("select 1");
  } catch (error) {
    const err = error as { code?: string; message?: string };
    const reason = err.code ? `${err.code} ${err.message ?? ""}`.trim() : err.message;
    throw new DatabaseUnavailableError(`cannot connect to ${where}: ${reason}`);
  } finally {
    await client.end().catch(() => {});
  }
}
