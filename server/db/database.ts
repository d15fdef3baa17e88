/**
 * Opens the database the configuration names: embedded PGlite under DATA_DIR when there is
 * no DATABASE_URL, PostgreSQL through node-postgres otherwise. Pending migrations are applied
 * before the client is handed out, in both modes, by a short-lived child process
 * (migrate-child.ts), so the server never loads the schema engine. Each driver is imported
 * only in its own mode: a PostgreSQL server never loads PGlite.
 */
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { startAutoAnalyze } from "./auto-analyze.ts";
import { type ChangeFeed, createLocalChangeFeed, createPostgresChangeFeed } from "./change-feed.ts";
import { copyTemplate, hasDataDir, openPGlite } from "./embedded.ts";
import { PrismaClient } from "./generated/client.ts";
import { migrateInChildProcess } from "./migrate-child.ts";
import { migrationNames } from "./migrate-names.ts";
import {
  pgliteRunner,
  pgPoolConfig,
  postgresRunner,
  type SqlQuery,
  type SqlRunner,
} from "./sql-runner.ts";

export type Database = {
  kind: "embedded" | "postgres";
  /** The PostgreSQL connection URL (null when embedded): for work run in a process of its own. */
  url: string | null;
  prisma: PrismaClient;
  /** Names of the migrations this open applied. */
  applied: string[];
  /** Plain SQL on the same database, for hot paths (see sql-runner.ts). */
  sql: SqlRunner;
  /**
   * Plain SQL for the screening path alone (decision 015): on PostgreSQL a small pool whose
   * commits do not wait for the disk (synchronous_commit off: a commit survives Warden being
   * killed, and a PostgreSQL crash loses at most its last fraction of a second of screenings,
   * never a Stripe effect). Embedded: `sql`.
   */
  screeningSql: SqlRunner;
  /** The PostgreSQL pool's connections (null when embedded), for the metrics. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /** A feed of settings changes: in-process when embedded, LISTEN/NOTIFY on PostgreSQL. */
  openChangeFeed(log: { warn(obj: object, msg: string): void }): ChangeFeed;
  close(): Promise<void>;
};

export class DatabaseUnavailableError extends Error {}

export type DatabaseOptions =
  | {
      kind: "embedded";
      dataDir?: string;
      /** An open PGlite (tests); migrated in this process, which then holds the engine. */
      pglite?: PGlite;
      /** A migrated data dir (dist/db-template): an empty data dir starts as a copy of it
       * instead of initdb and every migration. */
      template?: string;
    }
  | { kind: "postgres"; url: string };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === "postgres") return openPostgres(options.url);
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  let pglite = options.pglite;
  let applied: string[] = [];
  if (!pglite) {
    const dir = options.dataDir ? join(options.dataDir, "pgdata") : undefined;
    if (dir) {
      const opened = await openEmbeddedDir(dir, options.template);
      pglite = opened.pglite;
      applied = opened.applied;
    } else {
      pglite = await openPGlite(undefined);
    }
  }
  const owned = pglite;
  const adapter = new PrismaPGlite(owned);
  // No autovacuum embedded: table statistics are kept up to date here (auto-analyze.ts).
  const stopAnalyze = startAutoAnalyze(owned, (error) =>
    console.error(`embedded database: ANALYZE failed: ${(error as Error).message}`),
  );
  return finishOpen({
    kind: "embedded",
    adapter,
    applied,
    sql: await pgliteRunner(owned),
    screeningSql: null,
    // Only an in-memory or handed-in PGlite is migrated here: no other process can reach it.
    migrate:
      options.pglite || !options.dataDir
        ? async () => (await import("./migrate.ts")).applyMigrations(adapter)
        : undefined,
    poolStats: () => null,
    openChangeFeed: createLocalChangeFeed,
    async closeDriver() {
      await stopAnalyze();
      if (!owned.closed) await owned.close();
    },
  });
}

/**
 * PGlite on a data dir, migrated. One process at a time may open a data dir, so a pending
 * migration closes it, runs the migration process on it and opens it again (only after an
 * upgrade); an empty dir without a template is created and migrated by that process.
 */
async function openEmbeddedDir(dir: string, template: string | undefined) {
  let applied: string[] = [];
  if (!hasDataDir(dir)) {
    if (template && hasDataDir(template)) await copyTemplate(template, dir);
    else applied = await migrateInChildProcess({ kind: "embedded", dir });
  }
  let pglite = await openPGlite(dir);
  if (await hasPendingMigrations((text) => pglite.query(text).then((r) => r.rows as never))) {
    await pglite.close();
    applied = await migrateInChildProcess({ kind: "embedded", dir });
    pglite = await openPGlite(dir);
  }
  return { pglite, applied };
}

async function openPostgres(url: string): Promise<Database> {
  await checkReachable(url);
  const applied = (await hasPendingMigrations(oneShot(url)))
    ? await migrateInChildProcess({ kind: "postgres", url })
    : [];
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const pool = guarded(new pg.Pool(pgPoolConfig(url)));
  // Autovacuum analyzes a table a minute or more after it changed; a new install's prepared
  // statements are planned before that, on empty tables (auto-analyze.ts).
  const stopAnalyze = startAutoAnalyze(
    { query: async <T>(text: string) => ({ rows: (await pool.query(text)).rows as T[] }) },
    (error) => console.error(`database: ANALYZE failed: ${(error as Error).message}`),
    { sampled: false },
  );
  // Screening batches run one at a time (screening-batches.ts): a few connections suffice.
  const screeningPool = guarded(
    new pg.Pool({ ...pgPoolConfig(url, "-c synchronous_commit=off"), max: 4 }),
  );
  return finishOpen({
    kind: "postgres",
    url,
    adapter: new PrismaPg(pool),
    applied,
    sql: postgresRunner(pool),
    screeningSql: postgresRunner(screeningPool),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    openChangeFeed: (log) => createPostgresChangeFeed(url, log),
    async closeDriver() {
      await stopAnalyze();
      await Promise.all([pool.end(), screeningPool.end()]);
    },
  });
}

/**
 * A connection PostgreSQL ends (failover, restart, pg_terminate_backend) can emit "error"
 * while checked out with no listener, which would end the process (seen in the fault suite).
 * With one on every connection, its query fails and the pool drops it instead.
 */
function guarded(pool: pg.Pool): pg.Pool {
  pool.on("connect", (client) => client.on("error", () => {}));
  pool.on("error", () => {});
  return pool;
}

/** One query on a connection of its own, closed afterwards. */
function oneShot(url: string): SqlQuery {
  return <T>(text: string) =>
    withOwnConnection(url, async (client) => (await client.query(text)).rows as T[]);
}

/**
 * Runs `work` on a connection of its own and closes it. PostgreSQL can end a connection
 * between two queries (pg_terminate_backend, a restart, a failover): node-postgres then emits
 * "error" on the client, which without a listener ends the process (seen when an instance
 * started while the fault suite killed connections). With one, the next query fails instead.
 */
export async function withOwnConnection<T>(
  url: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

async function finishOpen(options: {
  kind: Database["kind"];
  url?: string;
  adapter: SqlMigrationAwareDriverAdapterFactory;
  /** Migrations already applied by the caller (the migration process). */
  applied: string[];
  sql: SqlRunner;
  /** null: the same as `sql`. */
  screeningSql: SqlRunner | null;
  /** Applies pending migrations in this process; absent when the caller has done it. */
  migrate?: () => Promise<string[]>;
  poolStats: Database["poolStats"];
  openChangeFeed: Database["openChangeFeed"];
  closeDriver: () => Promise<void>;
}): Promise<Database> {
  const { kind, adapter, sql, poolStats, openChangeFeed, closeDriver } = options;
  const prisma = new PrismaClient({ adapter });
  // In-process migration is left only for a database no other process can open (in memory
  // or handed in by a test); the schema engine then stays loaded, as its bindings keep
  // callbacks into it that outlive the migration.
  const { migrate } = options;
  const applied =
    migrate && (await hasPendingMigrations((text) => sql.query(text)))
      ? await migrate()
      : options.applied;
  return {
    kind,
    url: options.url ?? null,
    prisma,
    applied,
    sql,
    screeningSql: options.screeningSql ?? sql,
    poolStats,
    openChangeFeed,
    async close() {
      await prisma.$disconnect();
      await closeDriver();
    },
  };
}

/** Whether a migration of the folder is not recorded as applied (or the table is missing). */
async function hasPendingMigrations(query: SqlQuery): Promise<boolean> {
  try {
    const rows = await query<{ migration_name: string }>(
      `SELECT migration_name FROM "_prisma_migrations"
       WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Set(rows.map((row) => row.migration_name));
    return (await migrationNames()).some((name) => !applied.has(name));
  } catch {
    return true;
  }
}

/** Fails with "host:port: reason" so a wrong DATABASE_URL reads as one clear line. */
async function checkReachable(url: string): Promise<void> {
  const parsed = new URL(url);
  const where = `${parsed.hostname || "localhost"}:${parsed.port || "5432"}`;
  try {
    await withOwnConnection(url, (client) => client.query("select 1"));
  } catch (error) {
    const err = error as { code?: string; message?: string };
    const reason = err.code ? `${err.code} ${err.message ?? ""}`.trim() : err.message;
    throw new DatabaseUnavailableError(`cannot connect to ${where}: ${reason}`);
  }
}
