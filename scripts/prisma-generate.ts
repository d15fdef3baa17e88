/**
 * Runs `prisma generate` without network access. The Prisma CLI insists on downloading a
 * native schema engine first, which generate never runs; pointing it at any executable skips
 * the download (see docs/decisions/001-prisma-offline.md).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = join(tmpdir(), "warden-prisma");
mkdirSync(dir, { recursive: true });
const fakeEngine = join(dir, "schema-engine-unused");
writeFileSync(fakeEngine, "#!/bin/sh\nexit 1\n");
chmodSync(fakeEngine, 0o755);

const result = spawnSync("npx", ["--no-install", "prisma", "generate"], {
  stdio: ["ignore", "pipe", "inherit"],
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: fakeEngine,
    CHECKPOINT_DISABLE: "1",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
  },
});
if (result.status !== 0) {
  process.stdout.write(result.stdout);
  process.exit(result.status ?? 1);
}
