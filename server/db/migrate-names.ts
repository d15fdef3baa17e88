/**
 * Where the migrations live and their names: all a start needs to see whether one is pending,
 * without loading the schema engine (migrate.ts).
 */
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";

export const PRISMA_DIR = resolve(import.meta.dirname, "../../prisma");
export const MIGRATIONS_DIR = join(PRISMA_DIR, "migrations");

/** The migration folder's names, sorted. */
export async function migrationNames(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}
