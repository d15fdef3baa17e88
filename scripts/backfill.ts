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
    const user = await app.database.prisma.user.findUnique({ where: { email } });
    if (!user) throw new Error(`no account with the email ${email}`);
    const { secretKey } = await app.services.settings.stripeCredentials(user.accountId);
    if (!secretKey) throw new Error("this account has no Stripe secret key: add it in Settings");
    const job = await app.database.prisma.importJob.create({
      data: { accountId: user.accountId, days },
    });
    const bar = progressBar(`Importing ${days} days`);
    const imported = await app.services.stripeConnect.runImport(
      user.accountId,
      job.id,
      days,
      secretKey,
      (count, percent) => bar.update(percent, `${count} charges`),
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
