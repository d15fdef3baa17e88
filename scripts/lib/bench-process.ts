/**
 * What the benchmarks that run Warden as a separate process share: starting and stopping child
 * processes (node --import tsx <script>, stopped at the end, on error and on Ctrl-C), waiting
 * for them, a free port, and setting up a merchant over HTTP (signup, the confirmation link
 * from DATA_DIR/outbox, login). Used by the benchmarks (their harness is scripts/bench/) and by
 * the simulator.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import pg from "pg";

export const ROOT = resolve(import.meta.dirname, "../..");
export const HOST = "127.0.0.1";

// ---------------------------------------------------------------------------------------
// Child processes and cleanup

const children = new Set<ChildProcess>();
export const cleanups: (() => Promise<void>)[] = [];

/**
 * How a benchmark runs a script as its own process: with the Node flags `npm start` gives
 * (package.json), then BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p"). Warden
 * itself (server/main.ts) runs as `npm start` runs it, compiled (dist/server/main.js, built
 * first if its sources changed): under tsx every function expression also goes through
 * esbuild's keep-names helper, which cost the backtest ~5 % of its CPU that users never pay.
 * BENCH_FROM_SOURCE=1 runs the sources with tsx instead; other scripts always do. `root` is the
 * checkout the script runs from (bench:compare runs an older commit's server from its worktree);
 * `nodeArgs` are more Node flags for this one process (bench:compare --profile: its own
 * --cpu-prof-dir).
 */
export function nodeCommand(
  script: string,
  root = ROOT,
  nodeArgs: readonly string[] = [],
): string[] {
  const extra = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const flags = [
    "--max-semi-space-size=4",
    "--heap-growing-percent=50",
    "--liftoff-only",
    ...extra,
    ...nodeArgs,
  ];
  if (script === "server/main.ts" && !process.env.BENCH_FROM_SOURCE && builtServer(root)) {
    return [...flags, "dist/server/main.js"];
  }
  return [...flags, "--import", "tsx", script];
}

const built = new Map<string, boolean>();
/**
 * Brings `root`'s dist/ up to date once per run (a no-op when nothing changed); false if it
 * failed. Later starts from the same root reuse that build, even if its sources change meanwhile.
 */
export function builtServer(root = ROOT): boolean {
  let ok = built.get(root);
  if (ok === undefined) {
    const result = spawnSync(process.execPath, ["scripts/ensure-build.mjs"], {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
    });
    ok = result.status === 0 && existsSync(join(root, "dist/server/main.js"));
    built.set(root, ok);
    if (!ok)
      console.error(`${root}/dist/server/main.js could not be built: running the sources with tsx`);
  }
  return ok;
}

/**
 * Starts `script` as its own process from the checkout at `root` (default: this one), with
 * `nodeArgs` added to its Node flags.
 */
export function start(
  name: string,
  script: string,
  env: Record<string, string>,
  logFile: string,
  root = ROOT,
  nodeArgs: readonly string[] = [],
) {
  const log = openSync(logFile, "a");
  const child = spawn(process.execPath, nodeCommand(script, root, nodeArgs), {
    cwd: root,
    // npm start's environment too (package.json): two malloc arenas, unless the caller says.
    env: { MALLOC_ARENA_MAX: "2", ...baseEnv(), ...env },
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  children.add(child);
  child.once("exit", () => children.delete(child));
  child.once("error", (error) => console.error(`${name}: ${error.message}`));
  return child;
}

/** The caller's environment without anything that would point the server elsewhere. */
export function baseEnv(): Record<string, string> {
  const env = { ...process.env } as Record<string, string>;
  for (const name of ["DATABASE_URL", "SMTP_URL", "PUBLIC_URL", "ENCRYPTION_KEY", "HOST", "PORT"]) {
    delete env[name];
  }
  return env;
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

let cleaning: Promise<void> | null = null;
export function cleanup() {
  cleaning ??= (async () => {
    await Promise.all([...children].map(stop));
    // A copy: a database's drop takes itself out of `cleanups`, which would skip the next one.
    for (const fn of [...cleanups].reverse()) await fn().catch(() => {});
  })();
  return cleaning;
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the servers…`);
    void cleanup().finally(() => process.exit(130));
  });
}
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

export async function waitUntil(
  what: string,
  child: ChildProcess,
  logFile: string,
  ready: () => Promise<boolean>,
  timeoutMs = 120_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${what} exited with ${child.exitCode}:\n${tail(logFile, 30)}`);
    }
    if (await ready().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`${what} not ready within ${timeoutMs / 1000} s:\n${tail(logFile, 30)}`);
}

/** The PostgreSQL server a benchmark makes its database on: BENCH_DATABASE_URL, DATABASE_URL or the local one. */
export const BENCH_ADMIN_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.DATABASE_URL ??
  "postgresql://postgres@127.0.0.1:5432/postgres";

/**
 * A new empty database on `adminUrl`'s server for one benchmark: its URL, and `drop`, which
 * cleanup() also runs if the benchmark is cut short.
 */
export async function benchDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const drop = async () => {
    const at = cleanups.indexOf(drop);
    if (at >= 0) cleanups.splice(at, 1);
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
  cleanups.push(drop);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

// ---------------------------------------------------------------------------------------
// The merchant's setup, over HTTP

export async function call<T>(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      origin: base,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${init.method ?? "POST"} ${path}: HTTP ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** The confirmation link from the .eml the mailer wrote to DATA_DIR/outbox (no SMTP_URL). */
export async function confirmationLink(dataDir: string, email: string): Promise<URL> {
  const outbox = join(dataDir, "outbox");
  for (let i = 0; i < 100; i++) {
    const files = await readdir(outbox).catch(() => [] as string[]);
    for (const file of files.filter((f) => f.endsWith(".eml"))) {
      const raw = await readFile(join(outbox, file), "utf8");
      // The outbox holds plain 8-bit text (server/lib/mailer.ts): headers, a blank line, the body.
      const split = raw.search(/\r?\n\r?\n/);
      const head = raw.slice(0, split);
      const body = raw.slice(split);
      if (!head.toLowerCase().includes(email.toLowerCase())) continue;
      const href = body
        .match(/https?:\/\/\S+/g)
        ?.find((h) => new URL(h).pathname === "/confirm-email");
      if (href) return new URL(href);
    }
    await sleep(100);
  }
  throw new Error(`no confirmation email for ${email} in ${outbox}`);
}

/** Signs a new merchant up, confirms the email and logs in; returns the API session token. */
export async function signUpMerchant(
  base: string,
  dataDir: string,
  password: string,
  email = `bench-${Date.now()}@example.com`,
): Promise<string> {
  await call(base, "/trpc/auth.signup", { body: { email, password } });
  const link = await confirmationLink(dataDir, email);
  await call(base, "/trpc/auth.confirmEmail", {
    body: { tokenHash: link.searchParams.get("tokenHash"), email: link.searchParams.get("email") },
  });
  const { token } = await call<{ token: string }>(base, "/api/auth/login", {
    body: { email, password },
  });
  return token;
}
