/**
 * `npm run backfill -- --account <email> --days 90` imports the account's past charges from
 * Stripe's list API, recorded as webhooks would record them (without refunding anything).
 * Re-running changes nothing. With the embedded database, stop the server first: only one
 * process can open it (or use the "Import past charges" button in Settings instead).
 */
import { buildApp } from "../server/app.ts";
import { ConfigError, loadConfig } from "../server/config.ts";
import { flags, progressBar } from "./lib/progress.ts";

const args = flags();
const email = args.account?.trim().toLowerCase();
const days = Number(args.days ?? 90);
if (!email || !Number.isInteger(days) || days < 1 || days > 365) {
  console.error("usage: npm run backfill -- --account <email> --days <1-365, default 90>");
  process.exit(1);
}

try {
  const config = { ...loadConfig(), logLevel: "warn" as const };
  const app = await buildApp(config, { runStripeActions: false });
  try {
    const accountId = await app.services.accounts.accountIdForEmail(email);
    if (!accountId) throw new Error(`no account with the email ${email}`);
    const bar = progressBar(`Importing ${days} days`);
    // The same service as the Settings page's "Import past charges" button, in the foreground.
    const imported = await app.services.stripeImport.run(accountId, days, (count, percent) =>
      bar.update(percent, `${count} charges`),
    );
    bar.done(`Imported ${imported} charges for ${email}.`);
  } finally {
    await app.close();
  }
  process.exit(0);
} catch (error) {
  const message =
    error instanceof ConfigError
      ? `Configuration error: ${error.message}`
      : `Backfill failed: ${(error as Error).message}`;
  console.error(message);
  process.exit(1);
}
