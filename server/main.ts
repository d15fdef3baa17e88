/** Entry point: config → buildApp → listen; closes cleanly on SIGTERM/SIGINT. */

import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { DatabaseUnavailableError } from "./db/database.ts";
import { warmFeatures } from "./modules/screening/features/index.ts";
import { warmUpAfterListen } from "./warm-up.ts";

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error) => {
        app.log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Warden is ready on ${config.publicUrl}`);
  // Best effort (warm-up.ts): a failed check once listening used to end the process.
  await warmUpAfterListen(app.services.apiKeys.anyLive, warmFeatures, (error) =>
    app.log.warn({ err: error }, "could not check for live API keys: data sets load on first use"),
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
  } else if (error instanceof DatabaseUnavailableError) {
    console.error(`Configuration error: DATABASE_URL: ${error.message}`);
  } else {
    console.error(`Warden failed to start: ${(error as Error)?.message ?? error}`);
  }
  process.exit(1);
});
