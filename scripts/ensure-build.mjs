/**
 * Builds (prisma generate + vite build) only when what the build reads has changed since the
 * last build, so `npm start` on an installed checkout starts in a few seconds. Plain
 * JavaScript, so it needs no TypeScript loader. `npm install` runs it too (postinstall).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dirname, "..");
const INPUTS = [
  "prisma/schema.prisma",
  "client",
  "shared",
  "vite.config.ts",
  "scripts/prerender.ts",
  "package-lock.json",
];
const OUTPUTS = ["dist/client/index.html", "server/db/generated/client.ts"];
const STAMP = join(root, "dist", ".build-stamp");

function files(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { withFileTypes: true })
    .filter((entry) => entry.name !== "node_modules")
    .flatMap((entry) => files(relative(root, join(full, entry.name))));
}

function inputsHash() {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap(files).sort()) {
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(join(root, file)))
      .update("\0");
  }
  return hash.digest("hex");
}

const wanted = inputsHash();
const built = existsSync(STAMP) ? readFileSync(STAMP, "utf8").trim() : "";
const complete = OUTPUTS.every((output) => existsSync(join(root, output)));
if (built === wanted && complete) process.exit(0);

console.log(built ? "Sources changed since the last build: building…" : "Building Warden…");
const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(STAMP, `${wanted}\n`);
