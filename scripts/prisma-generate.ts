/**
 * Runs `prisma generate` without network access. The Prisma CLI insists on downloading a
 * native schema engine first, which generate never runs; pointing it at any executable skips
 * the download (see docs/decisions/001-prisma-offline.md).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

// The generated client imports Prisma's query compiler as a module whose one export is the
// WebAssembly binary in base64: an imported module's text is kept for good, so its 4.4 MB stayed
// in the heap twice (the source and the string) in every process. Read it as a file instead:
// decoded once, the text is garbage the moment the module is compiled.
const CLIENT = join(import.meta.dirname, "..", "server", "db", "generated", "internal", "class.ts");
const IMPORTED =
  /const \{ wasm \} = await import\("(@prisma\/client\/runtime\/[\w.-]+)\.wasm-base64\.mjs"\)\n(\s*)return await decodeBase64AsWasm\(wasm\)/;
const client = readFileSync(CLIENT, "utf8");
const found = IMPORTED.exec(client);
if (found) {
  const [whole, runtime, indent] = found;
  const read = [
    `// Read, not imported (scripts/prisma-generate.ts): the module's base64 text is not kept,`,
    `// and it is decoded 64 KiB at a time, so no 4 MB string is made even for a moment.`,
    `const { readFile } = await import("node:fs/promises")`,
    `const { createRequire } = await import("node:module")`,
    `const file = createRequire(import.meta.url).resolve("${runtime}.wasm-base64.js")`,
    `const text = await readFile(file)`,
    `const from = text.indexOf(34) + 1, to = text.lastIndexOf(34)`,
    `const bytes = Buffer.alloc(Math.floor(((to - from) * 3) / 4))`,
    `let length = 0`,
    `for (let at = from; at < to; at += 65536) {`,
    `  length += Buffer.from(text.toString("latin1", at, Math.min(at + 65536, to)), "base64").copy(bytes, length)`,
    `}`,
    `return new WebAssembly.Module(bytes.subarray(0, length))`,
  ].join(`\n${indent}`);
  writeFileSync(CLIENT, client.replace(whole, read));
} else if (!client.includes("Read, not imported (scripts/prisma-generate.ts)")) {
  process.stderr.write(
    "prisma-generate: the query compiler's import was not found in class.ts; it stays imported\n",
  );
}
