/** Starts the real app on a free local port against a test database and SMTP capture. */
import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { inject } from "vitest";
import { startStripeStandIn } from "../../scripts/lib/stripe-stand-in.ts";
import { buildApp } from "../../server/app.ts";
import { type Config, loadConfig } from "../../server/config.ts";
import type { Database } from "../../server/db/database.ts";
import { type DbKind, openTestDatabase } from "./databases.ts";
import { startSmtpCapture } from "./smtp.ts";

export type TestClock = { now: () => Date; advance(ms: number): void; set(date: Date): void };

export function testClock(start = Date.now()): TestClock {
  let current = start;
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    set(date) {
      current = date.getTime();
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;

export async function startTestApp(
  kind: DbKind,
  options: {
    clock?: TestClock;
    env?: Record<string, string>;
    logStream?: NodeJS.WritableStream;
    /** Reuse a database (to simulate a restart); it is then the caller's to close. */
    database?: Database;
    runStripeActions?: boolean;
    onRoute?: (route: { method: string | string[]; url: string }) => void;
  } = {},
) {
  const smtp = await startSmtpCapture();
  // Every test app talks to its own Stripe stand-in: no test can reach the real Stripe.
  const stripe = await startStripeStandIn();
  const dataDir = await mkdtemp(join(tmpdir(), "warden-test-"));
  const ownDatabase = !options.database;
  const database = options.database ?? (await openTestDatabase(kind));
  const clock = options.clock ?? testClock();
  // Browser tests get the client built for this run (see build-client.ts).
  let clientDir: string | undefined;
  try {
    clientDir = inject("clientDir");
  } catch {
    clientDir = undefined;
  }
  // A free port can be taken by another process before we listen on it: try another one.
  let started: { app: FastifyInstance; config: Config; port: number } | undefined;
  for (let attempt = 1; !started; attempt++) {
    const port = await freePort();
    const config = loadConfig({
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: smtp.url,
      STRIPE_API_BASE: stripe.url,
      LOG_LEVEL: "silent",
      ...options.env,
    });
    const app: FastifyInstance = await buildApp(config, {
      database,
      now: clock.now,
      clientDir,
      logStream: options.logStream,
      runStripeActions: options.runStripeActions,
      onRoute: options.onRoute,
    });
    try {
      await app.listen({ port, host: "127.0.0.1" });
      started = { app, config, port };
    } catch (error) {
      await app.close();
      if ((error as { code?: string }).code !== "EADDRINUSE" || attempt >= 5) throw error;
    }
  }
  const { app, config, port } = started;
  return {
    app,
    smtp,
    stripe,
    clock,
    config,
    baseUrl: `http://127.0.0.1:${port}`,
    prisma: database.prisma,
    database,
    async close() {
      await app.close();
      await smtp.close();
      await stripe.close();
      if (ownDatabase) await database.close();
    },
  };
}
