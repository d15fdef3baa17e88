import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DB_KINDS } from "../test/helpers/databases.ts";
import { scratchDatabase } from "./scratch-database.ts";

const run = promisify(execFile);

describe.each(DB_KINDS)("npm run waitlist:export on %s", (kind) => {
  it("writes the list as CSV to stdout and nothing else", async () => {
    const scratch = await scratchDatabase(kind, "export");
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
