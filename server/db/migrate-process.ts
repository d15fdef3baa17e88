/**
 * Applies pending migrations in a process of its own, so the server never holds Prisma's
 * schema engine (WebAssembly, a few hundred MB that cannot be released in-process: its
 * bindings keep callbacks into it). At build time it also writes the embedded database
 * template (an empty data dir, migrated: dist/db-template).
 *
 *   migrate-process embedded <pgdata dir>   migrate an embedded data dir (created if empty)
 *   migrate-process postgres                migrate WARDEN_MIGRATE_URL (kept out of argv/ps)
 *
 * Prints the JSON list of applied migration names on stdout; errors go to stderr, exit 1.
 */
import { openPGlite } from "./embedded.ts";
import { applyMigrations } from "./migrate.ts";

async function migrateEmbedded(dir: string): Promise<string[]> {
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const pglite = await openPGlite(dir);
  try {
    return await applyMigrations(new PrismaPGlite(pglite));
  } finally {
    await pglite.close();
  }
}

async function migratePostgres(url: string): Promise<string[]> {
  const [{ default: pg }, { PrismaPg }] = await Promise.all([
    import("pg"),
    import("@prisma/adapter-pg"),
  ]);
  // One connection, closed afterwards: the engine's advisory lock is taken and released in one
  // session and never outlives the migration.
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on("error", () => {});
  try {
    return await applyMigrations(new PrismaPg(pool));
  } finally {
    await pool.end();
  }
}

async function main(mode: string | undefined, target: string | undefined): Promise<string[]> {
  if (mode === "embedded" && target) return migrateEmbedded(target);
  if (mode === "postgres" && process.env.WARDEN_MIGRATE_URL) {
    return migratePostgres(process.env.WARDEN_MIGRATE_URL);
  }
  throw new Error("usage: migrate-process embedded <dir> | postgres");
}

main(process.argv[2], process.argv[3]).then(
  (applied) => {
    process.stdout.write(`${JSON.stringify(applied)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`${(error as Error)?.message ?? error}\n`);
    process.exit(1);
  },
);
