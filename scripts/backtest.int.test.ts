/** `npm run backtest` from a terminal: progress on stderr, the summary on stdout, --json, a bad flag. */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../server/db/database.ts";
import type { BacktestResult } from "../shared/schemas/backtest.ts";
import { DEFAULT_RULES } from "../shared/schemas/rules.ts";
import { DB_KINDS, type DbKind } from "../test/helpers/databases.ts";

const run = promisify(execFile);

async function scratchDatabase(kind: DbKind) {
  if (kind === "embedded") {
    const dataDir = await mkdtemp(join(tmpdir(), "warden-backtest-"));
    return {
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ kind: "embedded", dataDir }),
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL ?? "";
  const name = `warden_backtest_${Date.now().toString(36)}`;
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
    env: { DATABASE_URL: url.toString(), ENCRYPTION_KEY: randomBytes(32).toString("base64") },
    open: () => openDatabase({ kind: "postgres", url: url.toString() }),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

describe.each(DB_KINDS)("npm run backtest on %s", (kind) => {
  it("tries other settings on the account's charges and reports the refunded one", async () => {
    const scratch = await scratchDatabase(kind);
    const dir = await mkdtemp(join(tmpdir(), "warden-backtest-files-"));
    try {
      const database = await scratch.open();
      await database.prisma.account.create({ data: { id: "acct-cli" } });
      await database.prisma.user.create({
        data: { accountId: "acct-cli", email: "cli@example.com", passwordHash: "x" },
      });
      await database.prisma.transaction.create({
        data: {
          accountId: "acct-cli",
          chargeId: "ch_cli_refunded",
          hasCharge: true,
          status: "succeeded",
          captured: true,
          refunded: true,
          amount: 1200,
          amountRefunded: 1200,
          currency: "usd",
          riskScore: 91,
          created: Math.floor(Date.now() / 1000) - 2 * 86_400,
        },
      });
      await database.close();
      const settings = join(dir, "try.json");
      await writeFile(
        settings,
        JSON.stringify({ rules: { ...DEFAULT_RULES, rule_high_risk: true } }),
      );
      const out = join(dir, "result.json");
      const { DATABASE_URL: _ignored, ...env } = process.env;
      const cli = (...args: string[]) =>
        run("npx", ["tsx", "scripts/backtest.ts", ...args], {
          env: { ...env, LOG_LEVEL: "silent", ...scratch.env },
        });
      const { stdout, stderr } = await cli(
        "--account",
        "cli@example.com",
        "--days",
        "30",
        "--settings",
        settings,
        "--json",
        out,
      );
      expect(stderr).toMatch(/Testing 30 days .*100%/);
      expect(stdout).toMatch(/0 screenings, 1 charges, 1 would change/);
      expect(stdout).toMatch(/would be blocked: 1, of which refunded later: 1/);
      const result = JSON.parse(await readFile(out, "utf8")) as BacktestResult;
      expect(result.items).toEqual([
        expect.objectContaining({
          id: "ch_cli_refunded",
          from: "allow",
          to: "block",
          refunded: true,
        }),
      ]);

      const bad = await cli("--account", "cli@example.com", "--days", "0").catch((e) => e);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/days: must be a whole number of days from 1 to 90/);
    } finally {
      await scratch.drop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
