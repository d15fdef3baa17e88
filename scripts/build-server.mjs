/**
 * Compiles the server to dist/server/*.js (one ES module per entry, npm packages left
 * external), so `npm start` runs plain node instead of transpiling every file with tsx at each
 * start. Each source file keeps seeing its own location: `import.meta.url` and
 * `import.meta.dirname` are rewritten to the source file's, so paths such as ../../prisma or a
 * data file beside the code resolve as they do under tsx.
 */
import { readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");
const OUT_DIR = join(root, "dist", "server");
export const SERVER_ENTRIES = [
  "server/main.ts",
  "server/db/migrate-process.ts",
  "server/modules/backtest/backtest-process.ts",
  "server/modules/scoring/model-fit.worker.ts",
];

const sourceLocation = {
  name: "source-location",
  setup(plugin) {
    plugin.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.")) return { contents: text, loader: "ts" };
      const fromOut = (path) => relative(OUT_DIR, path).split("\\").join("/");
      const url = `new URL(${JSON.stringify(fromOut(args.path))}, import.meta.url).href`;
      const dir = `__wardenPath.join(import.meta.dirname, ${JSON.stringify(fromOut(dirname(args.path)))})`;
      return {
        contents: text
          .replaceAll("import.meta.url", `(${url})`)
          .replaceAll("import.meta.dirname", `(${dir})`),
        loader: "ts",
      };
    });
  },
};

// npm packages stay in node_modules, except JSON data, which is inlined: esbuild drops the
// `with { type: "json" }` of an external import, and Node refuses JSON without it.
const packagesExternal = {
  name: "packages-external",
  setup(plugin) {
    plugin.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.endsWith(".json") ? undefined : { path: args.path, external: true },
    );
  },
};

export async function buildServer() {
  await build({
    absWorkingDir: root,
    entryPoints: SERVER_ENTRIES,
    outdir: OUT_DIR,
    outbase: "server",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22",
    sourcemap: true,
    logLevel: "warning",
    // Tells entry-command.ts to spawn the compiled child processes (migration, backtest), not tsx.
    define: { __WARDEN_BUILT__: "true" },
    banner: { js: 'import __wardenPath from "node:path";' },
    plugins: [packagesExternal, sourceLocation],
  });
}

if (process.argv[1] === import.meta.filename) await buildServer();
