/**
 * `npm run -s waitlist:export > waitlist.csv` writes the landing-page waitlist as CSV
 * (email, created) to stdout, from the database the server would use (DATABASE_URL, else the
 * embedded one under DATA_DIR). The embedded database belongs to one process at a time: stop
 * the server before exporting from it. Messages go to stderr so stdout stays pure CSV.
 */
import { once } from "node:events";
import { ConfigError, loadConfig } from "../server/config.ts";
import { DatabaseUnavailableError, openDatabase } from "../server/db/database.ts";
import { createWaitlistRepository } from "../server/modules/waitlist/waitlist.repository.ts";
import { writeWaitlistCsv } from "../server/modules/waitlist/waitlist-export.ts";

async function write(chunk: string): Promise<void> {
  if (!process.stdout.write(chunk)) await once(process.stdout, "drain");
}

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: "postgres", url: config.databaseUrl }
      : { kind: "embedded", dataDir: config.dataDir },
  );
  try {
    const count = await writeWaitlistCsv(createWaitlistRepository(database.prisma), write);
    console.error(`Exported ${count} waitlist ${count === 1 ? "entry" : "entries"}.`);
  } finally {
    await database.close();
  }
}

main()
  .catch((error: unknown) => {
    if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
    else if (error instanceof DatabaseUnavailableError) {
      console.error(`Configuration error: DATABASE_URL: ${error.message}`);
    } else console.error(`Waitlist export failed: ${(error as Error)?.message ?? error}`);
    process.exitCode = 1;
  })
  // The migration engine leaves a 10-second timer behind; exit once stdout is flushed
  // rather than make the operator wait for it.
  .finally(() => process.stdout.write("", () => process.exit()));
