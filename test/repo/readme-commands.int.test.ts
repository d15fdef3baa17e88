/**
 * The README's commands, run where that is quick and changes nothing outside a temporary
 * folder. Every line of its `sh` blocks is either run by a test or listed below with why it
 * is not, so a command added to the README cannot go unchecked. `npm start` runs exactly as
 * written, with a temporary DATA_DIR and a free PORT, until GET /healthz answers 200; then
 * SIGTERM stops it. After `npm ci` the build is current and this takes a few seconds; in a
 * checkout whose sources changed since the last build, `npm start` first rebuilds what
 * changed (as it would for you), which can take a minute on 2 vCPUs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../helpers/test-app.ts";

const root = resolve(import.meta.dirname, "../..");

/** What is not run here, and why. A README line must match exactly one row of either table. */
const NOT_RUN: [RegExp, string][] = [
  [/^npm install$/, "installs into node_modules; CI's `npm ci` does it before the tests"],
  [/^npm test$/, "runs every test, this one included"],
  [
    /^grep -qs '\^ENCRYPTION_KEY=' \.env \|\| echo .* >> \.env$/,
    "run in an empty folder by test/repo/container.test.ts, which checks the .env it makes against compose.yaml",
  ],
  [
    /^docker (compose up|build|run)\b/,
    "no Docker engine in CI; test/repo/container.test.ts checks the Dockerfile, compose.yaml and these lines",
  ],
];
const RUN: RegExp[] = [/^npm start$/];

const readme = readFileSync(join(root, "README.md"), "utf8");
const commands = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) =>
  (m[1] ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean),
);

describe("the README's commands", () => {
  it.each(commands)("%s is run here or says why not", (command) => {
    const matches = [...RUN, ...NOT_RUN.map(([pattern]) => pattern)].filter((pattern) =>
      pattern.test(command),
    );
    expect(matches).toHaveLength(1);
  });

  it("include npm start, the one run below", () => {
    expect(commands).toContain("npm start");
  });

  it("npm start serves GET /healthz on PORT with an empty DATA_DIR, and stops on SIGTERM", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "warden-readme-"));
    const port = await freePort();
    const [command = "", ...args] = "npm start".split(" ");
    const child = spawn(command, args, {
      cwd: root,
      // A clean environment, as a person's shell has: no NODE_ENV=test from vitest (the
      // client build would bundle React's development build), no DATABASE_URL.
      env: {
        PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
        HOME: process.env.HOME ?? tmpdir(),
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
      },
      // Its own process group (npm, its shell, the server), so all of it can be stopped.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((done) => child.on("exit", done));
    try {
      const health = await healthOf(port, child, 150_000);
      expect(health, output).toBe(200);
      expect(
        existsSync(join(dataDir, "pgdata", "PG_VERSION")),
        "the embedded database in DATA_DIR",
      ).toBe(true);
      // As a service manager stops it: npm hands SIGTERM to the server, which closes and
      // exits 0, and npm with it.
      child.kill("SIGTERM");
      const code = await Promise.race([
        exited,
        new Promise((done) => setTimeout(() => done("still running"), 20_000)),
      ]);
      expect(code, output).toBe(0);
      const after = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
      expect(after).toBeNull();
    } finally {
      stop(child, "SIGKILL");
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

/** GET /healthz's status once it answers, or null if the process ended or time ran out. */
async function healthOf(port: number, child: ChildProcess, ms: number): Promise<number | null> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && child.exitCode === null) {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`, {
      signal: AbortSignal.timeout(5_000),
    }).catch(() => null);
    if (response) return response.status;
    await new Promise((done) => setTimeout(done, 250));
  }
  return null;
}

/** Signals the child's process group (npm, its shell, the server), if any of it is left. */
function stop(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}
