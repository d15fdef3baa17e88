/**
 * Builds the migrated databases every test database is copied from, once per run: an embedded
 * data dir on disk (as `dist/db-template` is built for production) and, when TEST_DATABASE_URL
 * is set, a PostgreSQL template database. A test database is then a copy (a directory copy, or
 * `CREATE DATABASE … TEMPLATE`) instead of initdb or CREATE DATABASE plus every migration.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../server/db/database.ts";
import { migrateInChildProcess } from "../../server/db/migrate-child.ts";
import { adminQuery, dropDatabase } from "./admin-sql.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated embedded data dir, closed cleanly: copy it, never open it. */
    embeddedTemplate: string;
    /** A migrated PostgreSQL database to clone (null without TEST_DATABASE_URL). */
    postgresTemplate: string | null;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), "warden-template-"));
  const embeddedTemplate = join(dir, "pgdata");
  const adminUrl = process.env.TEST_DATABASE_URL;
  const [postgresTemplate] = await Promise.all([
    adminUrl ? createPostgresTemplate(adminUrl) : null,
    migrateInChildProcess({ kind: "embedded", dir: embeddedTemplate }),
  ]);
  project.provide("embeddedTemplate", embeddedTemplate);
  project.provide("postgresTemplate", postgresTemplate);
  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (adminUrl && postgresTemplate) await dropDatabase(adminUrl, postgresTemplate);
  };
}

async function createPostgresTemplate(adminUrl: string): Promise<string> {
  const name = `warden_template_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Opening migrates it (in a child process, as production does); closing leaves no connection,
  // which CREATE DATABASE … TEMPLATE requires.
  const database = await openDatabase({ kind: "postgres", url: url.toString() });
  await database.close();
  return name;
}
