/**
 * `npx tsx scripts/bench-review.ts` (and `npm run bench`): the review queue at 100,000 open
 * items on PostgreSQL; `--json <file>` writes the results in the bench output contract.
 * Fills a fresh database with BENCH_OPEN (default 100,000) open reviews for one account, as
 * many screenings that are not open (allowed, or settled already) and a second account's,
 * with their device and email identities (each device seen about 50 times) and a fraud label
 * on 1 in 100; then times the real review service: the queue's first page of 50 (with the
 * shared identities and labels it shows), the sidebar's count, a filtered first page and a
 * page deep in the queue (median and p95 of BENCH_RUNS, default 50). Target: first page
 * under 50 ms. Needs BENCH_DATABASE_URL or DATABASE_URL (default: local postgres), and
 * creates and drops its own database.
 */
import { writeFile } from "node:fs/promises";
import { type Database, openDatabase } from "../server/db/database.ts";
import { createLabelsRepository } from "../server/modules/labels/labels.repository.ts";
import { createLabelsService } from "../server/modules/labels/labels.service.ts";
import { createLinksRepository } from "../server/modules/links/links.repository.ts";
import { createLinksService } from "../server/modules/links/links.service.ts";
import { createChargeReviewRepository } from "../server/modules/review/charge-review.repository.ts";
import { createReviewRepository } from "../server/modules/review/review.repository.ts";
import { createReviewService } from "../server/modules/review/review.service.ts";
import type { BenchResult } from "./bench/report.ts";
import { BENCH_ADMIN_URL, benchDatabase, cleanup } from "./lib/bench-process.ts";
import { flags } from "./lib/progress.ts";
import { runMain } from "./lib/run-main.ts";
import { timedRuns } from "./lib/timed-runs.ts";

const args = flags();

const OPEN = Number(process.env.BENCH_OPEN ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const CHUNK = 50_000;
const DEVICES = Math.max(1, Math.round(OPEN / 25));

/** Screenings g in [from, to]: open reviews when `open`, else allowed or already settled. */
async function fill(db: Database, accountId: string, from: number, to: number, open: boolean) {
  for (let start = from; start <= to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK - 1);
    await db.prisma.$executeRawUnsafe(
      `WITH s AS (
         INSERT INTO "Screening" ("id", "accountId", "createdAt", "type", "userId", "email", "ip",
           "decision", "score", "rules", "reasons", "monitored", "input", "reviewStatus")
         SELECT md5($1 || g)::uuid::text, $1, now() - make_interval(secs => g * 7),
           CASE WHEN g % 3 = 0 THEN 'signup' ELSE 'request' END, 'u' || (g % 40000),
           'user' || (g % 40000) || '@example.com', '203.0.' || (g % 250) || '.' || (g % 200),
           CASE WHEN $4 OR g % 2 = 0 THEN 'review' ELSE 'allow' END, 50,
           ARRAY[CASE WHEN g % 5 = 0 THEN 'rule_entropy' ELSE 'rule_scraping' END],
           jsonb_build_array(jsonb_build_object('rule', CASE WHEN g % 5 = 0 THEN 'rule_entropy' ELSE 'rule_scraping' END,
             'action', 'review', 'message', 'user agent is a known bot', 'observed', 'python-requests/2.31', 'limit', null)),
           '[]'::jsonb,
           jsonb_build_object('type', 'request', 'device_id', 'dev-' || (g % $5), 'email', 'user' || (g % 40000) || '@example.com'),
           CASE WHEN $4 OR g % 2 = 1 THEN NULL ELSE 'approved' END
         FROM generate_series($2::int, $3::int) AS g
         RETURNING "id", "accountId", "createdAt", "input")
       INSERT INTO "ScreeningIdentity" ("accountId", "screeningId", "kind", "value", "type", "at", "blocked")
       SELECT "accountId", "id", 'device', left(encode(sha256(convert_to('device', 'UTF8') || '\\x00'::bytea || convert_to("input"->>'device_id', 'UTF8')), 'hex'), 32),
         'request', "createdAt", false FROM s`,
      accountId,
      start,
      end,
      open,
      DEVICES,
    );
  }
}

async function time(label: string, run: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await run();
  const { median, p95 } = await timedRuns(RUNS, run);
  console.log(
    `${label.padEnd(44)} median ${median.toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms`,
  );
  return { median, p95 };
}

async function main() {
  const database = await benchDatabase(BENCH_ADMIN_URL, "warden_bench_review");
  const db = await openDatabase({ kind: "postgres", url: database.url });
  try {
    const [a, b] = ["bench-review-a", "bench-review-b"];
    await db.prisma.account.createMany({ data: [{ id: a }, { id: b }] });
    const started = performance.now();
    await fill(db, a, 1, OPEN, true);
    await fill(db, a, OPEN + 1, OPEN * 2, false);
    await fill(db, b, 1, Math.round(OPEN / 5), true);
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "Label" ("id", "accountId", "subjectKind", "subjectId", "label", "source", "who")
       SELECT gen_random_uuid()::text, $1, 'screening', "id", 'fraud', 'api', 'bench'
       FROM "Screening" WHERE "accountId" = $1 AND abs(hashtext("id")) % 100 = 0`,
      a,
    );
    await db.prisma.$executeRawUnsafe("ANALYZE");
    const open = await db.prisma.screening.count({
      where: { accountId: a, decision: "review", reviewStatus: null },
    });
    console.log(
      `filled ${open} open reviews (plus ${OPEN} not open, ${Math.round(OPEN / 5)} of another account) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const now = () => new Date();
    const labels = createLabelsService({ repo: createLabelsRepository(db.prisma), now });
    const review = createReviewService({
      repo: createReviewRepository(db.prisma),
      charges: createChargeReviewRepository(db.prisma),
      labels,
      links: createLinksService({ repo: createLinksRepository(db.prisma) }),
      now,
      // The bench's rows are stored unkeyed (as before keyed digests): any key finds them.
      digestKeyOf: () => "0".repeat(64),
    });
    const first = await review.queue(a, { limit: 50 });
    console.log(`first item shares: ${JSON.stringify(first.items.at(-1)?.shared)}`);
    let deep: string | null = null;
    for (let page = 0, cursor: string | null = null; page < 20; page++) {
      const next: { nextCursor: string | null } = await review.queue(a, { limit: 50, cursor });
      cursor = next.nextCursor;
      deep = cursor;
    }

    const results = {
      firstPage: await time("queue, first page of 50", () => review.queue(a, { limit: 50 })),
      count: await time("open count (sidebar)", () => review.count(a)),
      filtered: await time("queue, first page, rule filter", () =>
        review.queue(a, { limit: 50, rule: "rule_entropy" }),
      ),
      deep: await time("queue, page 21 (keyset cursor)", () =>
        review.queue(a, { limit: 50, cursor: deep }),
      ),
    };
    const plan = await db.prisma.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
      `EXPLAIN SELECT "id" FROM "Screening" WHERE "accountId" = $1 AND "decision" = 'review'
         AND "reviewStatus" IS NULL ORDER BY "createdAt", "id" LIMIT 51`,
      a,
    );
    console.log(plan.map((row) => row["QUERY PLAN"]).join("\n"));
    if (args.json) {
      const out: BenchResult[] = [
        {
          name: `review queue, first page at ${OPEN.toLocaleString("en-US")} open (PostgreSQL, median)`,
          value: results.firstPage.median,
          unit: "ms",
          target: "< 50 ms",
          detail: results,
        },
        { name: "review queue, open count (median)", value: results.count.median, unit: "ms" },
      ];
      await writeFile(args.json, JSON.stringify({ results: out }, null, 2));
    }
    const target = results.firstPage.median < 50 ? "under" : "OVER";
    console.log(
      `first page median ${results.firstPage.median.toFixed(1)} ms: ${target} the 50 ms target`,
    );
  } finally {
    await db.close();
    await database.drop();
  }
}

runMain(main, { show: (error) => error, after: cleanup });
