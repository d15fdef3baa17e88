/**
 * A database a script's integration test lets the script open by itself, as the server would: a
 * data dir (embedded) or a fresh PostgreSQL database beside TEST_DATABASE_URL, dropped after.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type Database, openDatabase } from "../server/db/database.ts";

/** `label` names the data dir and the database ("backtest": warden_backtest_…). */
export async function scratchDatabase(kind: Database["kind"], label: string) {
  if (kind === "embedded") {
    const dataDir = await mkdtemp(join(tmpdir(), `warden-${label}-`));
    return {
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ kind: "embedded", dataDir }),
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL ?? "";
  const name = `warden_${label}_${Date.now().toString(36)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    // The server's configuration asks for a key with DATABASE_URL; the scripts read no secret.
    env: { DATABASE_URL: url.toString(), ENCRYPTION_KEY: randomBytes(32).toString("base64") },
    open: () => openDatabase({ kind: "postgres", url: url.toString() }),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
