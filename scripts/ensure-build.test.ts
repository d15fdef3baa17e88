/**
 * `npm start` and `npm install` (postinstall) on a Node older than `engines` allows: both run
 * scripts/ensure-build.mjs first, which stops with one line naming the Node needed and how to get
 * it, and exit code 1, before any build. Run with the machine's own old Node (/usr/bin/node is
 * Node 20 on Debian bookworm and in CI, while the tests run on Node 24), in a copy of the files
 * the check reads (package.json, .nvmrc, scripts/), so a regression cannot start a build in this
 * checkout under the wrong Node.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const OLD_NODE = process.env.OLD_NODE_PATH ?? "/usr/bin/node";

/** The old Node's version, or why there is none to test with. */
function oldNode(): { version: string } | { skip: string } {
  if (!existsSync(OLD_NODE)) return { skip: `no ${OLD_NODE} on this machine` };
  const run = spawnSync(OLD_NODE, ["-p", "process.versions.node"], { encoding: "utf8" });
  const version = run.stdout.trim();
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > 22 || (major === 22 && minor >= 13)) {
    return { skip: `${OLD_NODE} is Node ${version}, not older than 22.13` };
  }
  return { version };
}

const old = oldNode();
const title =
  "version" in old
    ? `on Node ${old.version} (${OLD_NODE})`
    : `on an old Node (skipped: ${old.skip})`;

describe.skipIf(!("version" in old))(title, () => {
  const version = "version" in old ? old.version : "";
  const line = new RegExp(
    `^Warden needs Node 22\\.13 or later \\(24 recommended\\); this is Node ${version.replaceAll(".", "\\.")}\\. With nvm: \`nvm install\` \\(reads \\.nvmrc\\); otherwise https://nodejs\\.org/en/download\\.$`,
  );
  const copy = mkdtempSync(join(tmpdir(), "warden-old-node-"));
  for (const path of ["package.json", ".nvmrc", "scripts"]) {
    cpSync(join(root, path), join(copy, path), { recursive: true });
  }
  // The old Node first, as `node` for npm's scripts too.
  const env = { PATH: `${dirname(OLD_NODE)}:${process.env.PATH ?? ""}`, HOME: copy };
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it("node scripts/ensure-build.mjs prints one line and exits 1, building nothing", () => {
    const run = spawnSync(OLD_NODE, ["scripts/ensure-build.mjs"], {
      cwd: copy,
      env,
      encoding: "utf8",
    });
    expect(run.stderr.split("\n")).toEqual([expect.stringMatching(line), ""]);
    expect(run.stdout).toBe("");
    expect(run.status).toBe(1);
    expect(existsSync(join(copy, "dist")), "nothing built").toBe(false);
  });

  it("npm start says the same once and stops with exit code 1", () => {
    const run = spawnSync("npm", ["start"], { cwd: copy, env, encoding: "utf8" });
    const lines = `${run.stdout}\n${run.stderr}`.split("\n").filter((l) => l.startsWith("Warden"));
    expect(lines, run.stdout + run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(line);
    expect(run.stdout + run.stderr).not.toMatch(/Building|Sources changed|listening/);
    expect(run.status).toBe(1);
    expect(existsSync(join(copy, "dist")), "nothing built").toBe(false);
  });
});
