/**
 * `npm run lint:imports` as a test, so CI (which runs `npm test`, not `npm run lint`) fails on
 * an import cycle, on code importing test/ or on a module reaching into another's internals.
 * The rules: .dependency-cruiser.cjs.
 */
import { execFile } from "node:child_process";
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
