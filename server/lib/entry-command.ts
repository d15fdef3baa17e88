/**
 * How the server starts one of its own entry points as a child process (the migration
 * process, a backtest job). Built by scripts/build-server.mjs, the compiled
 * dist/server/….js runs with plain node; from source (tsx, vitest), the TypeScript file
 * through tsx.
 */
import { resolve } from "node:path";

declare const __WARDEN_BUILT__: boolean | undefined;

export const ROOT = resolve(import.meta.dirname, "../..");

/** Node's arguments for `source` (a path under server/, e.g. "server/db/migrate-process.ts"). */
export function entryCommand(source: string): string[] {
  if (typeof __WARDEN_BUILT__ !== "undefined" && __WARDEN_BUILT__) {
    return [resolve(ROOT, "dist", source.replace(/\.ts$/, ".js"))];
  }
  return ["--import", "tsx", resolve(ROOT, source)];
}
