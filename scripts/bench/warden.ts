/**
 * Warden as the process under test: a fresh data dir (and for PostgreSQL a fresh database on
 * the admin URL's server, dropped by `close`), started as `npm start` runs it
 * (bench-process.ts), its log in the work dir. Shared by the benchmarks that load its HTTP API.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import {
  benchDatabase,
  call,
  freePort,
  HOST,
  start,
  stop,
  waitUntil,
} from "../lib/bench-process.ts";

export type DatabaseKind = "postgres" | "embedded";

export type WardenProcess = {
  kind: DatabaseKind;
  /** "PostgreSQL" or "embedded", as the tables print it. */
  label: string;
  base: string;
  dataDir: string;
  logFile: string;
  /** The PostgreSQL database the server uses (null on the embedded one). */
  databaseUrl: string | null;
  /** The ENCRYPTION_KEY Warden was given (base64), with PostgreSQL. */
  encryptionKey: string | null;
  child: ChildProcess;
  /** Answers /healthz, or throws with the log's last lines. */
  ready: () => Promise<void>;
  /** Stops the server and drops its database. */
  close: () => Promise<void>;
};

/** "PostgreSQL" or "embedded". */
export const databaseLabel = (kind: string) => (kind === "postgres" ? "PostgreSQL" : "embedded");

/** The databases `--db` names (default both); exits 2 on anything else. */
export function databaseKinds(db: string | undefined): DatabaseKind[] {
  const kinds = (db ? [db] : ["postgres", "embedded"]) as DatabaseKind[];
  for (const kind of kinds) {
    if (kind !== "postgres" && kind !== "embedded") {
      console.error(`--db must be postgres or embedded (got "${kind}")`);
      process.exit(2);
    }
  }
  return kinds;
}

/**
 * Starts Warden on a free port of 127.0.0.1 with `env` added, from the checkout at
 * `options.root` (default: this one), with `options.nodeArgs` added to its Node flags; call
 * `ready()` before use.
 */
export async function launchWarden(
  kind: DatabaseKind,
  workDir: string,
  options: {
    adminUrl: string;
    databasePrefix: string;
    env: Record<string, string>;
    root?: string;
    nodeArgs?: readonly string[];
  },
): Promise<WardenProcess> {
  const dataDir = await mkdtemp(join(workDir, `${kind}-`));
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  const env: Record<string, string> = {
    PORT: String(port),
    HOST,
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    ...options.env,
  };
  let dropDatabase: (() => Promise<void>) | null = null;
  let databaseUrl: string | null = null;
  if (kind === "postgres") {
    const database = await benchDatabase(options.adminUrl, options.databasePrefix);
    dropDatabase = database.drop;
    databaseUrl = database.url;
    env.DATABASE_URL = databaseUrl;
    env.ENCRYPTION_KEY = randomBytes(32).toString("base64");
  }
  const logFile = join(workDir, `${kind}-server.log`);
  const label = databaseLabel(kind);
  console.error(`\n${label}: starting Warden on ${base}`);
  const child = start(
    `Warden (${kind})`,
    "server/main.ts",
    env,
    logFile,
    options.root,
    options.nodeArgs,
  );
  return {
    kind,
    label,
    base,
    dataDir,
    logFile,
    databaseUrl,
    encryptionKey: env.ENCRYPTION_KEY ?? null,
    child,
    ready: () =>
      waitUntil(
        `Warden (${kind})`,
        child,
        logFile,
        async () => (await fetch(`${base}/healthz`)).ok,
      ),
    close: async () => {
      await stop(child);
      await dropDatabase?.();
    },
  };
}

/** Turns every rule of the merchant on (booleans to true, settings kept). */
export async function turnAllRulesOn(base: string, token: string): Promise<void> {
  const rules = await call<Record<string, unknown>>(base, "/api/rules", { token });
  const allOn = Object.fromEntries(
    Object.entries(rules).map(([key, value]) => [key, typeof value === "boolean" ? true : value]),
  );
  await call(base, "/api/rules", { method: "PUT", token, body: allOn });
}
