/**
 * Real Warden processes for the fault suite: `node --import tsx server/main.ts` against a fresh
 * PostgreSQL database, killed and restarted as a crash would, plus what a test needs around
 * them (the database to inspect, a mail capture, signed-in merchants).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../../server/db/generated/client.ts";
import type { ScreenInput, ScreenResult } from "../../shared/schemas/screening.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import type { startSmtpCapture } from "../helpers/smtp.ts";
import { freePort, type TestApp } from "../helpers/test-app.ts";

export const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString("base64");

/**
 * A fresh, empty PostgreSQL database; the first Warden started on it migrates it (the test
 * does not, so no migration of its own holds the lock a starting instance waits for).
 */
export async function freshPostgres(adminUrl: string) {
  const name = `warden_fault_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 7)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url.toString() }) });
  return {
    name,
    url: url.toString(),
    prisma,
    /** Ends every connection to the database but this admin one, as a failover would. */
    async killConnections(): Promise<number> {
      const result = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [name],
      );
      return result.rowCount ?? 0;
    },
    async drop() {
      await prisma.$disconnect().catch(() => {});
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

export type WardenProcess = Awaited<ReturnType<typeof startWarden>>;

/** Starts Warden on a free port and waits until /healthz answers 200. */
export async function startWarden(env: {
  databaseUrl: string;
  stripeUrl: string;
  smtpUrl: string;
  port?: number;
}) {
  const port = env.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), "warden-fault-"));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(process.env.FAULT_TRACE ? ["--import", process.env.FAULT_TRACE] : []),
      "--import",
      "tsx",
      "server/main.ts",
    ],
    {
      env: {
        ...process.env,
        DATABASE_URL: env.databaseUrl,
        ENCRYPTION_KEY,
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: baseUrl,
        DATA_DIR: dataDir,
        SMTP_URL: env.smtpUrl,
        STRIPE_API_BASE: env.stripeUrl,
        LOG_LEVEL: "fatal",
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  // What a dying process says is kept (and printed if it dies unasked).
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  let expectedExit = false;
  child.once("exit", (code, signal) => {
    if (!expectedExit)
      console.error(`[faults] Warden on ${port} exited (${code ?? signal}): ${stderr}`);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Warden exited with ${child.exitCode}: ${stderr}`);
    const ok = await fetch(`${baseUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error("Warden did not start in 30 s");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    port,
    baseUrl,
    /** kill -9: no shutdown, no finally blocks, as a crash or an OOM kill. */
    async crash() {
      expectedExit = true;
      child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      expectedExit = true;
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A merchant signed up, confirmed and logged in through `warden`. */
export function merchantOn(
  warden: WardenProcess,
  smtp: Awaited<ReturnType<typeof startSmtpCapture>>,
  prisma: TestApp["prisma"],
  email: string,
) {
  return signedInMerchant({ baseUrl: warden.baseUrl, smtp, prisma } as TestApp, email);
}

/** A screening's answer: the result, or an error message. */
export type ScreenAnswer = ScreenResult & { error?: { message: string } };

/** A desktop Chrome user agent for the screenings the fault tests send. */
export const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36";

/** POST /api/v1/screen with a secret key; the status and the answer. */
export async function screen(w: WardenProcess, key: string, input: ScreenInput) {
  const response = await fetch(`${w.baseUrl}/api/v1/screen`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(input),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: (await response.json()) as ScreenAnswer };
}
