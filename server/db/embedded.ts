/**
 * Opens the embedded PostgreSQL (PGlite) with the settings Warden runs it with, in the server
 * and in the migration process alike.
 *
 * shared_buffers is 16 MB instead of PostgreSQL's 128 MB: PGlite touches its whole buffer pool,
 * so the default alone was about 125 MB of resident memory (304 → 179 MB for PGlite on an
 * existing data dir, measured). The data files are ordinary files, so the operating system's
 * page cache still holds what the small pool does not. Durability is unchanged: no
 * relaxedDurability, the same commit path as before.
 *
 * wal_init_zero is off: a new 16 MB WAL segment is created by writing its last byte instead
 * of 2,048 pages of zeroes. The zero-fill ran on the database's one thread, so every new
 * segment (one per few thousand screenings) held every request 20-50 ms (PGlite on a data
 * dir, 112 MB of WAL: pauses of 51, 24, 41 and 15 ms, against one of 21 ms without). The
 * fill only reserves disk space early; PGlite runs with fsync off (-F), so it guarded
 * nothing here that a crash of the machine would not lose anyway, and a full disk still
 * fails the write that needs the space.
 */
import { existsSync } from "node:fs";
import { cp, mkdir, rename, rm, rmdir } from "node:fs/promises";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";

const SETTINGS = ["shared_buffers=16MB", "wal_init_zero=off"];

/** Whether `dir` already holds a PostgreSQL data directory. */
export function hasDataDir(dir: string): boolean {
  return existsSync(join(dir, "PG_VERSION"));
}

/**
 * Fills an empty `dir` with a copy of `template`, a migrated data dir closed cleanly (written at
 * build time): plain file copies instead of initdb and every migration, and without the
 * memory PGlite takes to initialize or load a tarball.
 */
export async function copyTemplate(template: string, dir: string): Promise<void> {
  // Copied aside and renamed into place, so a start cut short never leaves half a database
  // that the next start would take for a whole one.
  const partial = `${dir}.partial`;
  await rm(partial, { recursive: true, force: true });
  await cp(template, partial, { recursive: true });
  await rmdir(dir).catch(() => {}); // an empty dir only; rename fails on anything else
  await rename(partial, dir);
}

/**
 * The contrib extensions the migrations create (pg_trgm: the Screenings search's trigram
 * indexes). PGlite holds an extension's code only when it is opened with it, and every write
 * to such an index runs that code, so every PGlite on Warden's schema is opened with these.
 */
export async function pgliteExtensions() {
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  return { pg_trgm };
}

/** PGlite on `dir` (created with initdb if empty), or in memory without one. */
export async function openPGlite(dir: string | undefined): Promise<PGlite> {
  const { PGlite } = await import("@electric-sql/pglite");
  if (dir) await mkdir(dir, { recursive: true });
  return PGlite.create({
    ...(dir ? { dataDir: dir } : {}),
    extensions: await pgliteExtensions(),
    startParams: [...PGlite.defaultStartParams, ...SETTINGS.flatMap((s) => ["-c", s])],
  });
}
