/**
 * A database a script's integration test lets the script open by itself, as the server would: a
 * data dir (embedded) or a fresh PostgreSQL database beside TEST_DATABASE_URL, dropped after.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "../server/db/database.ts";
import { freshPostgresDatabase } from "./lib/fresh-postgres.ts";

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
  const { url, drop } = await freshPostgresDatabase(process.env.TEST_DATABASE_URL ?? "", label);
  return {
    // The server's configuration asks for a key with DATABASE_URL; the scripts read no secret.
    env: { DATABASE_URL: url, ENCRYPTION_KEY: randomBytes(32).toString("base64") },
    open: () => openDatabase({ kind: "postgres", url }),
    drop,
  };
}
