/**
 * Browser tests run against the built client, built once per run into a private temporary
 * folder, so a parallel `npm run build` cannot pull the files out from under them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "vite";
import type { TestProject } from "vitest/node";
import { buildCollector } from "../../scripts/build-collector.ts";

declare module "vitest" {
  export interface ProvidedContext {
    clientDir: string;
  }
}

export default async function setup(project: TestProject) {
  const outDir = await mkdtemp(join(tmpdir(), "warden-client-"));
  // Vitest sets NODE_ENV=test, which makes Vite bundle React's development build; test what
  // visitors get instead.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      configFile: "vite.config.ts",
      logLevel: "warn",
      build: { outDir, emptyOutDir: true, sourcemap: false },
    });
    await buildCollector(outDir);
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  project.provide("clientDir", outDir);
  return async () => {
    await rm(outDir, { recursive: true, force: true });
  };
}
