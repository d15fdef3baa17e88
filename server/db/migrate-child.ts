/**
 * Runs migrate-process.ts as a child process and returns the names it applied. Built by
 * scripts/build-server.mjs, the server spawns the compiled dist/server/db/migrate-process.js
 * with plain node; run from source (tsx, vitest), the TypeScript file through tsx.
 */
import { spawn } from "node:child_process";
import { entryCommand, ROOT } from "../lib/entry-command.ts";

export type MigrationTarget = { kind: "embedded"; dir: string } | { kind: "postgres"; url: string };

export function migrateInChildProcess(target: MigrationTarget): Promise<string[]> {
  const args = target.kind === "embedded" ? ["embedded", target.dir] : ["postgres"];
  const env = { ...process.env };
  if (target.kind === "postgres") env.WARDEN_MIGRATE_URL = target.url;
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [...entryCommand("server/db/migrate-process.ts"), ...args],
      {
        cwd: ROOT,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", fail);
    child.on("exit", (code) => {
      if (code === 0) {
        try {
          done(JSON.parse(stdout.trim().split("\n").pop() ?? "[]") as string[]);
          return;
        } catch {
          // Falls through: an unreadable answer is a failed migration.
        }
      }
      fail(new Error(`migration failed: ${stderr.trim() || `exit code ${code}`}`));
    });
  });
}
