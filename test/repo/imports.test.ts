/**
 * `npm run lint:imports` as a test, so CI (which runs `npm test`, not `npm run lint`) fails on
 * an import cycle, on code importing test/ or on a module reaching into another's internals.
 * The rules: .dependency-cruiser.cjs.
 */
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, resolve } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

it("finds no import cycle, no code importing test/, no reach into a module's internals (npm run lint:imports)", async () => {
  const script: string = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")).scripts[
    "lint:imports"
  ];
  expect(script).toContain("depcruise");
  const result = await promisify(execFile)("sh", ["-c", script], {
    cwd: root,
    env: {
      ...process.env,
      PATH: `${resolve(root, "node_modules/.bin")}${delimiter}${process.env.PATH}`,
    },
  }).catch((error: { code: number; stdout: string; stderr: string }) => error);
  expect(`${result.stdout}${result.stderr}`).toContain("no dependency violations found");
}, 60_000);

it("loads PGlite only on the embedded path: no server file imports it or its Prisma adapter as a value at the top", () => {
  // A PostgreSQL server never loads PGlite (database.ts; decision 011): its JavaScript is about
  // 0.5 MB of source a process keeps. Types are fine, and `await import()` where it is used.
  const files = execFileSync("git", ["ls-files", "server"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
  expect(files.length).toBeGreaterThan(100);
  const offenders = files.filter((file) =>
    STATIC_PGLITE_IMPORT.test(readFileSync(resolve(root, file), "utf8")),
  );
  expect(offenders).toEqual([]);
});

/** `import { x } from "@electric-sql/pglite…"` (or the adapter), not `import type`. */
const STATIC_PGLITE_IMPORT =
  /^import\s+(?!type\s)[^;]*?\sfrom\s+["'](@electric-sql\/pglite|pglite-prisma-adapter)["'/]/m;
