import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshPostgresDatabase } from "../../scripts/lib/fresh-postgres.ts";
import { openDatabase } from "./database.ts";
import { PRISMA_DIR } from "./migrate.ts";

async function migrationsOnDisk() {
  const dir = join(PRISMA_DIR, "migrations");
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, "migration.sql"), "utf8");
      return { name, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

type Row = { migration_name: string; checksum: string; finished_at: Date | null };

async function recorded(db: Awaited<ReturnType<typeof openDatabase>>): Promise<Row[]> {
  return db.prisma.$queryRaw<Row[]>`
    SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name`;
}

describe("migrations", () => {
  it("apply to an empty embedded database, as prisma migrate deploy records them, and only once", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "warden-migrate-"));
    try {
      const expected = await migrationsOnDisk();
      const first = await openDatabase({ kind: "embedded", dataDir });
      expect(first.applied).toEqual(expected.map((m) => m.name));
      const rows = await recorded(first);
      expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(
        expected.map((m) => [m.name, m.checksum]),
      );
      expect(rows.every((r) => r.finished_at !== null)).toBe(true);
      await first.close();

      const second = await openDatabase({ kind: "embedded", dataDir });
      expect(second.applied).toEqual([]);
      expect(await recorded(second)).toHaveLength(expected.length);
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
    // initdb and every migration in the migration process: about 30 s on a busy 2-core host.
  }, 120_000);

  it.runIf(process.env.TEST_DATABASE_URL)(
    "apply to an empty PostgreSQL database, and a second start applies nothing",
    async () => {
      const adminUrl = process.env.TEST_DATABASE_URL ?? "";
      const { url, drop } = await freshPostgresDatabase(adminUrl, "migrate");
      try {
        const expected = await migrationsOnDisk();
        const first = await openDatabase({ kind: "postgres", url });
        expect(first.applied).toEqual(expected.map((m) => m.name));
        expect((await recorded(first)).map((r) => r.checksum)).toEqual(
          expected.map((m) => m.checksum),
        );
        await first.close();
        const second = await openDatabase({ kind: "postgres", url });
        expect(second.applied).toEqual([]);
        await second.close();
      } finally {
        await drop();
      }
    },
  );

  it("names host and port when PostgreSQL cannot be reached", async () => {
    await expect(
      openDatabase({ kind: "postgres", url: "postgresql://postgres@127.0.0.1:1/none" }),
    ).rejects.toThrow(/^cannot connect to 127\.0\.0\.1:1: ECONNREFUSED/);
  });
});
