/**
 * `npm run bench:webhooks` — signed charge events per second through the real webhook path
 * (HTTP, signature check, inbox, merge, rules, commit), on the embedded database and, when
 * BENCH_DATABASE_URL names a PostgreSQL server, on a fresh database there too.
 * Options: --events 2000 --concurrency 8. The load generator runs in the same process as the
 * server (it needs the database the server holds), so the figure is a lower bound.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import Stripe from "stripe";
import { buildApp } from "../server/app.ts";
import { loadConfig } from "../server/config.ts";
import { type DatabaseOptions, openDatabase } from "../server/db/database.ts";
import { buildCharge, buildEvent } from "../server/modules/demo/stripe-objects.ts";
import { flags, progressBar } from "./lib/progress.ts";

const args = flags();
const EVENTS = Number(args.events ?? 2000);
const CONCURRENCY = Number(args.concurrency ?? 8);
const signer = new Stripe("sk_bench", { telemetry: false });

async function bench(label: string, dbOptions: DatabaseOptions, dataDir: string) {
  const database = await openDatabase(dbOptions);
  const config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      PORT: "3999",
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
    }),
    logLevel: "silent" as const,
  };
  const app = await buildApp(config, { database, runStripeActions: false });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as { port: number };
  try {
    const user = await database.prisma.user.create({
      data: {
        email: `bench-${Date.now()}@example.com`,
        passwordHash: "x",
        account: { create: {} },
      },
    });
    const secret = "whsec_benchmarkSecret000000";
    await app.services.settings.setWebhookSecret(user.accountId, secret);
    const url = `http://127.0.0.1:${port}${new URL(await app.services.settings.get(user.accountId).then((s) => s.stripe_webhook_url ?? "")).pathname}`;
    // Signed before the clock starts: the load generator shares this process with the server.
    const bodies = Array.from({ length: EVENTS }, (_, i) => {
      const charge = buildCharge({
        amount: 1000 + i,
        riskScore: i % 60,
        email: `buyer${i}@example.com`,
      });
      const payload = JSON.stringify(buildEvent("charge.succeeded", charge));
      return { payload, signature: signer.webhooks.generateTestHeaderString({ payload, secret }) };
    });
    const bar = progressBar(`${label}: ingesting`);
    let next = 0;
    let done = 0;
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++];
          if (!body) break;
          const t0 = performance.now();
          const response = await fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json", "stripe-signature": body.signature },
            body: body.payload,
          });
          if (response.status !== 200)
            throw new Error(`HTTP ${response.status}: ${await response.text()}`);
          await response.arrayBuffer();
          latencies.push(performance.now() - t0);
          if (++done % 50 === 0) bar.update((done / EVENTS) * 100, `${done}/${EVENTS}`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]?.toFixed(1);
    const stored = await database.prisma.transaction.count({
      where: { accountId: user.accountId },
    });
    bar.done(
      `${label}: ${EVENTS} events in ${seconds.toFixed(1)} s = ${(EVENTS / seconds).toFixed(0)} events/s ` +
        `(concurrency ${CONCURRENCY}; latency p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms; ${stored} rows stored)`,
    );
  } finally {
    await app.close();
    await database.close();
  }
}

const dir = await mkdtemp(join(tmpdir(), "warden-bench-"));
try {
  await bench("embedded", { kind: "embedded", dataDir: dir }, dir);
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl) {
    const name = `warden_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    try {
      await bench("postgres", { kind: "postgres", url: url.toString() }, dir);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  } else {
    console.error("(set BENCH_DATABASE_URL=postgresql://… to measure PostgreSQL too)");
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
process.exit(0);
