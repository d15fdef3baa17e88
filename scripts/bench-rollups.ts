/**
 * `npx tsx scripts/bench-rollups.ts [--screenings 1000000] [--weeks 1] [--db embedded|postgres]`: how much
 * room an account's baseline takes (issue 45: "rollups on 1M screenings a week fit in a few MB
 * per merchant"). One merchant's week of screenings, drawn at random with the long tails a real
 * one has (most signups from a /24 and a domain seen once; companies and mobile carriers'
 * networks seen often; a few promo codes; a few hundred prices), goes through the rollups as
 * the server adds them (server/modules/baselines/rollups.ts, flushed every 15 s of simulated
 * time, as the server does), and housekeeping's expiry, compaction and VACUUM run at the end of
 * every simulated day (the server runs them hourly). `--weeks 6` plays that many such weeks, past the five the baseline keeps: the
 * steady state. Prints the rows by span and series and the table's size with its indexes at the
 * end, before and after a last housekeeping (and VACUUM FULL, so the size is the rows', not
 * the free space a busy table keeps for reuse).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../server/db/database.ts";
import { createBaselinesRepository } from "../server/modules/baselines/baselines.repository.ts";
import { createRollups } from "../server/modules/baselines/rollups.ts";
import { freshPostgresDatabase } from "./lib/fresh-postgres.ts";
import { flags, progressBar } from "./lib/progress.ts";
import { runMain } from "./lib/run-main.ts";
import { rng } from "./lib/sim/rng.ts";

const args = flags();
const SCREENINGS = Number(args.screenings ?? 1_000_000);
const WEEKS = Number(args.weeks ?? 1);
const DB = args.db === "postgres" ? "postgres" : "embedded";
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * 86_400_000;
const START = Date.parse("2026-11-02T00:00:00Z");

const TYPES: [string, number][] = [
  ["request", 0.55],
  ["login", 0.2],
  ["signup", 0.1],
  ["checkout", 0.1],
  ["promo", 0.03],
  ["trial", 0.02],
];
const RULES = [
  "rule_scraping",
  "rule_signup_velocity",
  "rule_email",
  "rule_card_reuse",
  "rule_device_reuse",
  "rule_one_trial",
  "rule_promo_abuse",
];

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "warden-bench-rollups-"));
  const admin = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const pg = DB === "postgres" ? await freshPostgresDatabase(admin, "bench_rollups") : null;
  const db = pg
    ? await openDatabase({ kind: "postgres", url: pg.url })
    : await openDatabase({ kind: "embedded", dataDir: dir });
  try {
    const account = await db.prisma.account.create({ data: { name: "bench" } });
    const rollups = createRollups({ sql: db.sql, log: console });
    const r = rng(45);
    const pick = <T>(items: [T, number][]): T => {
      let x = r.next();
      for (const [item, weight] of items) {
        x -= weight;
        if (x < 0) return item;
      }
      return (items.at(-1) as [T, number])[0];
    };
    const bar = progressBar("screenings");
    // Flushed as the server flushes: every 15 s of the simulated clock.
    const FLUSH_MS = 15_000;
    let flushedAt = START;
    const started = performance.now();
    const baselines = createBaselinesRepository(db.sql);
    const housekeeping = async (minute: number) => {
      let purged = 0;
      for (let n = 1; n > 0; purged += n) n = await baselines.purge(minute, 10_000);
      let tail = 0;
      for (let n = 1; n > 0; tail += n) n = await baselines.compactTail(minute, 10_000);
      await baselines.vacuum();
      return { purged, tail };
    };
    const total = SCREENINGS * WEEKS;
    let day = 0;
    for (let i = 0; i < total; i++) {
      const at = START + Math.floor((i / total) * WEEKS * WEEK_MS);
      if (Math.floor((at - START) / DAY_MS) > day) {
        await rollups.flush();
        day = Math.floor((at - START) / DAY_MS);
        await housekeeping(Math.floor(at / 60_000));
      }
      const type = pick(TYPES);
      const roll = r.next();
      const decision = roll < 0.02 ? "block" : roll < 0.05 ? "review" : "allow";
      const values: Record<string, string> = {};
      if (type === "signup") {
        // 30% from 2,000 shared networks (carriers' NAT, offices), the rest from a /24 of their own.
        values.subnet = r.next() < 0.3 ? `shared-${Math.floor(r.next() * 2000)}` : `own-${i}`;
        // 40% on a domain Warden counts (not a big provider); half of those a company's.
        if (r.next() < 0.4) {
          values.domain = r.next() < 0.5 ? `company-${Math.floor(r.next() * 3000)}` : `rare-${i}`;
        }
      }
      if (type === "promo") values.promo = `CODE${Math.floor(r.next() * 20)}`;
      rollups.add({
        accountId: account.id,
        createdAt: new Date(at),
        type,
        decision,
        rules: decision === "allow" ? [] : [RULES[Math.floor(r.next() * RULES.length)] as string],
        score: Math.floor(r.next() * 100),
        identities: { values, legacy: {}, subject: null },
        input:
          type === "checkout"
            ? { amount: 100 * (1 + Math.floor(r.next() * 300)), currency: "usd" }
            : {},
      });
      if (at - flushedAt >= FLUSH_MS) {
        await rollups.flush();
        flushedAt = at;
      }
      if ((i + 1) % 10_000 === 0) bar.update((100 * (i + 1)) / total, `${i + 1}`);
    }
    await rollups.flush();
    bar.done(
      `${SCREENINGS} screenings rolled up in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const report = async (label: string) => {
      const rows = await db.sql.query<{ span: number; series: string; rows: unknown }>(
        `SELECT "span", "series", count(*) AS rows FROM "SeriesCount" GROUP BY 1, 2 ORDER BY 1, 2`,
      );
      const [size] = await db.sql.query<{ bytes: unknown; heap: unknown }>(
        `SELECT pg_total_relation_size('"SeriesCount"') AS bytes, pg_relation_size('"SeriesCount"') AS heap`,
      );
      const total = rows.reduce((a, r) => a + Number(r.rows), 0);
      console.log(
        `\n${label}: ${total} rows, ${(Number(size?.bytes) / 1e6).toFixed(1)} MB with indexes (${(Number(size?.heap) / 1e6).toFixed(1)} MB table)`,
      );
      console.log("| span | series | rows |\n|---:|---|---:|");
      for (const row of rows) console.log(`| ${row.span} | ${row.series} | ${Number(row.rows)} |`);
    };
    await report(`After ${WEEKS} week(s) of ${SCREENINGS} screenings (housekeeping daily)`);
    const { purged, tail } = await housekeeping(Math.floor((START + WEEKS * WEEK_MS) / 60_000));
    await db.sql.query(`VACUUM FULL "SeriesCount"`);
    console.log(`\nhousekeeping at the end: ${purged} expired buckets, ${tail} tail weeks dropped`);
    await report("After housekeeping (VACUUM FULL)");
  } finally {
    await db.close();
    await pg?.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

runMain(main);
