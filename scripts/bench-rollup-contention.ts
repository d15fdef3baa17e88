/**
 * `npx tsx scripts/bench-rollup-contention.ts`: does the daily rollup's row lock serialize
 * concurrent webhooks of one account? On PostgreSQL (BENCH_DATABASE_URL, default the local
 * server; a database it creates and drops), 16 connections each run webhook-shaped
 * transactions for one account and one day: the ingest's placeholder insert, the update that
 * gives the row its charge (the rollup trigger fires here and locks its row until commit),
 * then --hold ms of the rest of an ingest transaction (pg_sleep), then commit. Three variants:
 * triggers off, the rollup as shipped (8 shards), and the rollup with one shard.
 * Options: --webhooks 2000, --connections 16, --hold 2.
 */
import pg from "pg";
import { openDatabase } from "../server/db/database.ts";
import { freshPostgresDatabase } from "./lib/fresh-postgres.ts";
import { flags } from "./lib/progress.ts";
import { runMain } from "./lib/run-main.ts";

const args = flags();
const WEBHOOKS = Number(args.webhooks ?? 2000);
const CONNECTIONS = Number(args.connections ?? 16);
const HOLD_MS = Number(args.hold ?? 2);
const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DAY_START = Math.floor(Date.now() / 86_400_000) * 86_400;

async function run(pool: pg.Pool, label: string) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = await pool.connect();
      try {
        for (let n = next++; n < WEBHOOKS; n = next++) {
          const chargeId = `ch_${label}_${n}`;
          await client.query("BEGIN");
          await client.query(
            `INSERT INTO "Transaction" ("accountId", "chargeId", "updatedAt") VALUES ('acc', $1, now())
             ON CONFLICT DO NOTHING`,
            [chargeId],
          );
          await client.query(
            `UPDATE "Transaction" SET "hasCharge" = true, "created" = $2, "currency" = 'usd',
               "amount" = 1000 WHERE "accountId" = 'acc' AND "chargeId" = $1`,
            [chargeId, DAY_START + (n % 80_000)],
          );
          await client.query("SELECT pg_sleep($1)", [HOLD_MS / 1000]);
          await client.query("COMMIT");
        }
      } finally {
        client.release();
      }
    }),
  );
  return WEBHOOKS / ((performance.now() - started) / 1000);
}

async function main() {
  const { url, drop } = await freshPostgresDatabase(adminUrl, "bench_lock");
  const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
  // DROP DATABASE ... WITH (FORCE) at the end ends any connection still open: expected.
  pool.on("error", () => {});
  try {
    const db = await openDatabase({ kind: "postgres", url });
    await db.prisma.account.create({ data: { id: "acc" } });
    await db.close();
    const rows: { variant: string; "webhooks/s": string }[] = [];
    await pool.query(`ALTER TABLE "Transaction" DISABLE TRIGGER USER`);
    rows.push({
      variant: "no rollup (triggers off)",
      "webhooks/s": (await run(pool, "off")).toFixed(0),
    });
    await pool.query(`ALTER TABLE "Transaction" ENABLE TRIGGER USER`);
    rows.push({
      variant: "rollup, 8 shards (shipped)",
      "webhooks/s": (await run(pool, "s8")).toFixed(0),
    });
    const { rows: def } = await pool.query(
      `SELECT pg_get_functiondef('"transaction_day_sync"'::regproc) AS sql`,
    );
    await pool.query(String(def[0].sql).replaceAll("& 7", "& 0"));
    rows.push({
      variant: "rollup, 1 shard (one hot row)",
      "webhooks/s": (await run(pool, "s1")).toFixed(0),
    });
    console.log(
      `\n${WEBHOOKS} webhook-shaped transactions for one account and day, ${CONNECTIONS} connections, ${HOLD_MS} ms held after the update:`,
    );
    console.table(rows);
  } finally {
    await pool.end();
    await drop();
  }
}

runMain(main, {
  show: (error) => `Benchmark failed: ${(error as Error)?.stack ?? error}`,
  after: () => process.stdout.write("", () => process.exit()),
});
