import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../server/db/database.ts";
import { DB_KINDS, type DbKind } from "../test/helpers/databases.ts";

const run = promisify(execFile);

/** A database the script can open by itself, as the server would: a data dir or a URL. */
async function scratchDatabase(kind: DbKind) {
  if (kind === "embedded") {
    const dataDir = await mkdtemp(join(tmpdir(), "warden-export-"));
    return {
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ kind: "embedded", dataDir }),
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL ?? "";
  const name = `warden_export_${Date.now().toString(36)}`;
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
    // The server's configuration asks for a key with DATABASE_URL; the export reads no secret.
    env: { DATABASE_URL: url.toString(), ENCRYPTION_KEY: randomBytes(32).toString("base64") },
    open: () => openDatabase({ kind: "postgres", url: url.toString() }),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

describe.each(DB_KINDS)("npm run waitlist:export on %s", (kind) => {
  it("writes the list as CSV to stdout and nothing else", async () => {
    const scratch = await scratchDatabase(kind);
    try {
      const database = await scratch.open();
      await database.prisma.waitlistEntry.createMany({
        data: [
          { email: "first@example.com", createdAt: new Date("2025-01-02T03:04:05.000Z") },
          { email: 'odd,"name"@example.com', createdAt: new Date("2025-01-03T00:00:00.000Z") },
        ],
      });
      await database.close();

      const { DATABASE_URL: _ignored, ...env } = process.env;
      const { stdout, stderr } = await run("npm", ["run", "--silent", "waitlist:export"], {
        env: { ...env, LOG_LEVEL: "silent", ...scratch.env },
      });
      expect(stdout).toBe(
        "email,created\r\n" +
          "first@example.com,2025-01-02T03:04:05.000Z\r\n" +
          '"odd,""name""@example.com",2025-01-03T00:00:00.000Z\r\n',
      );
      expect(stderr).toContain("Exported 2 waitlist entries.");
    } finally {
      await scratch.drop();
    }
    // Two cold starts of the migration engine (seeding here, then the script) on a busy runner.
  }, 90_000);
});

it("fails with one clear line and a non-zero exit on a bad configuration", async () => {
  const failed = run("npm", ["run", "--silent", "waitlist:export"], {
    env: { ...process.env, DATABASE_URL: "mysql://nope" },
  });
  await expect(failed).rejects.toMatchObject({
    code: 1,
    stdout: "",
    stderr: expect.stringContaining("Configuration error: DATABASE_URL: must be a postgres://"),
  });
});
