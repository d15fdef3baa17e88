/** Entry point: config → buildApp → listen; closes cleanly on SIGTERM/SIGINT. */

import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { DatabaseUnavailableError } from "./db/database.ts";
import { warmFeatures } from "./modules/screening/features/index.ts";

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
  // A merchant who screens gets the data sets loaded now, not on their first call.
  if (await app.services.apiKeys.anyLive()) setImmediate(warmFeatures);
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
