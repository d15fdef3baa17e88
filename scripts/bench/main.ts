/**
 * How every benchmark ends: a failure is printed with its stack and exits 1; whatever happens,
 * every child process and temporary database is stopped and dropped (bench-process.ts), then
 * the process exits once stdout is flushed.
 */
import { cleanup } from "../lib/bench-process.ts";

export function runBench(name: string, main: () => Promise<void>): void {
  main()
    .catch((error: unknown) => {
      console.error(`\n${name} failed: ${(error as Error)?.stack ?? error}`);
      process.exitCode = 1;
    })
    .finally(async () => {
      await cleanup();
      process.stdout.write("", () => process.exit());
    });
}
