/**
 * Builds only what is out of date, so `npm start` on an installed checkout starts in a few
 * seconds. Each step has its own inputs; a step runs when the hash of its inputs differs from
 * the one recorded after its last run, or an output is missing:
 *   client    prisma generate + vite build (`npm run build`)
 *   server    the server compiled to dist/server (scripts/build-server.mjs), run by plain node
 *   template  dist/db-template, a migrated embedded data dir: an empty DATA_DIR starts as a
 *             copy of it instead of initdb and every migration
 * Plain JavaScript, so it needs no TypeScript loader. `npm install` runs it too (postinstall).
 * Before anything else it checks the Node version (scripts/lib/node-version.mjs): an older
 * Node than `engines` allows stops here with one line, so this file keeps to syntax old Nodes
 * parse.
 * A failed server or template build is not fatal: `npm start` then runs the sources with tsx
 * and an empty data dir is migrated as before.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { unsupportedNodeLine } from "./lib/node-version.mjs";

// First of all, before any build: on a Node older than `engines` allows (the server and its
// build tools would fail in confusing ways, or not at all), say which Node to get, and stop.
const tooOld = unsupportedNodeLine(
  process.versions.node,
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).engines.node,
  readOptional(new URL("../.nvmrc", import.meta.url)),
);
if (tooOld) {
  console.error(tooOld);
  process.exit(1);
}

const root = join(import.meta.dirname, "..");
const STAMP = join(root, "dist", ".build-stamp.json");
const LOCK = "package-lock.json";

const STEPS = [
  {
    name: "client",
    inputs: [
      "prisma/schema.prisma",
      "client",
      "shared",
      "vite.config.ts",
      "scripts/prerender.ts",
      "scripts/build-collector.ts",
      LOCK,
    ],
    outputs: [
      "dist/client/index.html",
      "dist/client/sdk/warden.js",
      "server/db/generated/client.ts",
    ],
    required: true,
    run: () => spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" }).status === 0,
  },
  {
    name: "server",
    inputs: ["server", "shared", "scripts/build-server.mjs", LOCK],
    outputs: [
      "dist/server/main.js",
      "dist/server/db/migrate-process.js",
      "dist/server/modules/backtest/backtest-process.js",
      "dist/server/modules/scoring/model-fit.worker.js",
    ],
    required: false,
    run: () => node(["scripts/build-server.mjs"]),
  },
  {
    name: "template",
    inputs: ["prisma/migrations", "server/db", "dist/server/db/migrate-process.js", LOCK],
    outputs: ["dist/db-template/PG_VERSION"],
    required: false,
    run: () => {
      // Built aside and renamed, so a start never copies a half-written template.
      const [building, done] = [join(root, "dist/db-template.new"), join(root, "dist/db-template")];
      rmSync(building, { recursive: true, force: true });
      const built =
        existsSync(join(root, "dist/server/db/migrate-process.js")) &&
        node(["dist/server/db/migrate-process.js", "embedded", building]);
      rmSync(done, { recursive: true, force: true });
      if (built) renameSync(building, done);
      return built;
    },
  },
];

function node(args) {
  return (
    spawnSync(process.execPath, args, { cwd: root, stdio: ["ignore", "ignore", "inherit"] })
      .status === 0
  );
}

function files(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return path.endsWith(".test.ts") ? [] : [path];
  return readdirSync(full, { withFileTypes: true })
    .filter((entry) => entry.name !== "node_modules")
    .flatMap((entry) => files(relative(root, join(full, entry.name))));
}

function inputsHash(inputs) {
  const hash = createHash("sha256");
  for (const file of inputs.flatMap(files).sort()) {
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(join(root, file)))
      .update("\0");
  }
  return hash.digest("hex");
}

function readOptional(file) {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function readStamps() {
  try {
    return JSON.parse(readFileSync(STAMP, "utf8"));
  } catch {
    return {};
  }
}

const stamps = readStamps();
for (const step of STEPS) {
  const wanted = inputsHash(step.inputs);
  const complete = step.outputs.every((output) => existsSync(join(root, output)));
  if (stamps[step.name] === wanted && complete) continue;
  if (step.name === "client") {
    console.log(
      stamps.client ? "Sources changed since the last build: building…" : "Building Warden…",
    );
  }
  if (step.run()) {
    stamps[step.name] = wanted;
  } else if (step.required) {
    process.exit(1);
  } else {
    console.warn(`Warden: the ${step.name} build failed; starting without it.`);
    for (const output of step.outputs) rmSync(join(root, output), { force: true });
    delete stamps[step.name];
  }
  mkdirSync(join(root, "dist"), { recursive: true });
  writeFileSync(STAMP, `${JSON.stringify(stamps, null, 2)}\n`);
}
