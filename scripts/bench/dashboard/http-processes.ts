/**
 * The processes bench:dashboard's HTTP run loads: the real server and the bare route, each
 * started here with its stderr on ours; a user added straight in the database, logged in.
 */
import { type ChildProcess, spawn } from "node:child_process";
import pg from "pg";
import { hashPassword } from "../../../server/lib/password.ts";
import { nodeCommand, ROOT } from "../../lib/bench-process.ts";

const PASSWORD = "bench dashboard password";

/** A confirmed user of the account, with the bench password. */
export async function addUser(databaseUrl: string, accountId: string, email: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO "User" ("id", "accountId", "email", "passwordHash", "emailConfirmedAt")
       VALUES (gen_random_uuid()::text, $1, $2, $3, now())`,
      [accountId, email, await hashPassword(PASSWORD)],
    );
  } finally {
    await client.end();
  }
}

/** Logs the user in once the server answers; the session token. */
export async function login(base: string, email: string): Promise<string> {
  const response = await waitFor(() =>
    fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ email, password: PASSWORD }),
    }),
  );
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token) throw new Error(`login: HTTP ${response.status}`);
  return body.token;
}

/** Retries while the process is still starting (connection refused), up to two minutes. */
export async function waitFor(attempt: () => Promise<Response>): Promise<Response> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((done) => setTimeout(done, 250));
    }
  }
}

/** Starts `script` without the caller's database, mail and key settings. */
export function start(script: string, env: Record<string, string>): ChildProcess {
  const clean = { ...process.env } as Record<string, string>;
  for (const name of [
    "DATABASE_URL",
    "SMTP_URL",
    "PUBLIC_URL",
    "ENCRYPTION_KEY",
    "METRICS_TOKEN",
  ]) {
    delete clean[name];
  }
  const child = spawn(process.execPath, nodeCommand(script), {
    cwd: ROOT,
    env: { ...clean, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  process.once("exit", () => child.kill("SIGKILL"));
  return child;
}
