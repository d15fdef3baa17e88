/** `npm run backtest` from a terminal: progress on stderr, the summary on stdout, --json, a bad flag. */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { BacktestResult } from "../shared/schemas/backtest.ts";
import { DEFAULT_RULES } from "../shared/schemas/rules.ts";
import { DB_KINDS } from "../test/helpers/databases.ts";
import { scratchDatabase } from "./scratch-database.ts";

const run = promisify(execFile);

describe.each(DB_KINDS)("npm run backtest on %s", (kind) => {
  it("tries other settings on the account's charges and reports the refunded one", async () => {
    const scratch = await scratchDatabase(kind, "backtest");
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
