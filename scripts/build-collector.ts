/**
 * Builds the browser collector (client/collector) into <client dir>/sdk: warden.mjs (an ES
 * module) and warden.js (a classic script defining window.Warden), minified, no source maps.
 * `npm run build` runs it after the client's build (which empties the client dir).
 */
import { resolve } from "node:path";
import { build } from "vite";

const root = resolve(import.meta.dirname, "..");

export async function buildCollector(clientDir: string): Promise<void> {
  const outDir = resolve(clientDir, "sdk");
  const builds = [
    { entry: "client/collector/warden.ts", format: "es", file: "warden.mjs" },
    { entry: "client/collector/global.ts", format: "iife", file: "warden.js" },
  ] as const;
  for (const { entry, format, file } of builds) {
    await build({
      configFile: false,
      root,
      publicDir: false,
      logLevel: "warn",
      build: {
        outDir,
        emptyOutDir: false,
        sourcemap: false,
        minify: true,
        target: "es2019",
        lib: {
          entry: resolve(root, entry),
          formats: [format],
          name: "Warden",
          fileName: () => file,
        },
      },
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildCollector(resolve(root, "dist/client"));
}
