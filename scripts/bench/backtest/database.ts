/**
 * bench:backtest's database, opened in this process to fill it: a new one on PostgreSQL
 * (BENCH_KEEP_DB=1 keeps it), or a data dir for the embedded one. `env` is what the server
 * started afterwards needs to find it.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type Database, openDatabase } from "../../../server/db/database.ts";
import { options } from "./options.ts";

export type BenchDatabase = {
  db: Database;
  env: Record<string, string>;
  /** Drops the database or removes the data dir. */
  cleanup: () => Promise<void>;
};

async function admin(text: string) {
  const client = new pg.Client({ connectionString: options.pgAdminUrl });
  await client.connect();
  await client.query(text);
  await client.end();
}

async function postgres(): Promise<BenchDatabase> {
  const name = `warden_bench_backtest_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE "${name}"`);
  const cleanup = async () => {
    // BENCH_KEEP_DB=1 leaves the filled database for EXPLAIN or a profile of its own.
    if (process.env.BENCH_KEEP_DB) return console.error(`  kept database ${name}`);
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
  const url = new URL(options.pgAdminUrl);
  url.pathname = `/${name}`;
  const env = {
    DATABASE_URL: url.toString(),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  };
  return { db: await openDatabase({ kind: "postgres", url: env.DATABASE_URL }), env, cleanup };
}

async function embedded(): Promise<BenchDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), "warden-bench-backtest-"));
  return {
    db: await openDatabase({ kind: "embedded", dataDir }),
    env: { DATA_DIR: dataDir },
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
}

export const openBenchDatabase = (kind: "postgres" | "embedded") =>
  kind === "postgres" ? postgres() : embedded();
