/**
 * `npm run backtest -- --account <email> --days 30` tries the account's rule settings on its
 * last days of stored screenings and charges ("Test on history" from a terminal): a progress
 * bar on stderr, a summary on stdout. `--settings <file>` tries other settings instead (the
 * JSON the Rules page sends: rules, templates, rule_settings, blocklist); `--json <file>`
 * also writes the whole result. With the embedded database, stop the server first.
 */
import { readFile, writeFile } from "node:fs/promises";
import { buildApp } from "../server/app.ts";
import { ConfigError, loadConfig } from "../server/config.ts";
import { ZBacktestInput } from "../shared/schemas/backtest.ts";
import { flags, progressBar } from "./lib/progress.ts";

const args = flags();
const email = args.account?.trim().toLowerCase();
if (!email) {
  console.error(
    "usage: npm run backtest -- --account <email> [--days <1-90, default 30>] [--settings <file>] [--json <file>]",
  );
  process.exit(1);
}

try {
  const config = { ...loadConfig(), logLevel: "warn" as const };
  const app = await buildApp(config, { runStripeActions: false });
  try {
    const s = app.services;
    const accountId = await s.accounts.accountIdForEmail(email);
    if (!accountId) throw new Error(`no account with the email ${email}`);
    const saved = {
      rules: await s.rules.get(accountId),
      templates: await s.templates.get(accountId),
      rule_settings: await s.ruleSettings.overrides(accountId),
      blocklist: await s.blocklist.get(accountId),
    };
    const other = args.settings ? JSON.parse(await readFile(args.settings, "utf8")) : {};
    const parsed = ZBacktestInput.safeParse({ ...saved, ...other, days: Number(args.days ?? 30) });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${issue?.path.join(".") || "input"}: ${issue?.message}`);
    }
    const bar = progressBar(`Testing ${parsed.data.days} days`);
    const result = await s.backtest.run(accountId, parsed.data, (processed, total) =>
      bar.update(total ? (processed / total) * 100 : 100, `${processed} / ${total} events`),
    );
    bar.done(`Done in ${(result.tookMs / 1000).toFixed(1)} s.`);
    const rows = [
      ...Object.entries(result.screenings.changes).map(([change, n]) => ({
        what: "screenings",
        change,
        count: n,
      })),
      ...Object.entries(result.charges.changes).map(([change, n]) => ({
        what: "charges",
        change,
        count: n,
      })),
    ];
    console.log(
      `${email}, ${result.from.slice(0, 10)} to ${result.to.slice(0, 10)}: ` +
        `${result.screenings.total} screenings, ${result.charges.total} charges, ${result.changed} would change.`,
    );
    if (rows.length > 0) console.table(rows);
    const c = result.charges;
    console.log(
      `Charges that would be blocked: ${c.newlyBlocked}, of which refunded later: ${c.newlyBlockedRefunded}, ` +
        `disputed: ${c.newlyBlockedDisputed} (refunded or disputed: ${c.newlyBlockedRefundedOrDisputed}).`,
    );
    if (args.json) await writeFile(args.json, `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await app.close();
  }
  process.exit(0);
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? `Configuration error: ${error.message}`
      : `Backtest failed: ${(error as Error).message}`,
  );
  process.exit(1);
}
