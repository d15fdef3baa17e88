/**
 * A proposal on 100,000 labelled screenings, end to end over HTTP (read, fit with 5-fold
 * cross-validation in its worker thread, backtest, store): under the minute. The rows
 * are the worst case for the fit: two signals with values to three decimals, so hardly two
 * labelled screenings are alike and none are counted together. While it fits, the server's
 * thread stays free: a screening sent meanwhile is answered in well under a second. Measured:
 * 14.5–15.9 s on PostgreSQL (reading 5 s, the fit and its five folds 9 s, the 30-day backtest
 * 2 s).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScoreModelView } from "../../shared/schemas/score-models.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

const ROWS = 100_000;

// PostgreSQL only, where the performance targets are set (embedded, measured once:
// 26–31 s on the same machine; its reads run in the server's own process).
describe.runIf(DB_KINDS.includes("postgres"))("a proposal on 100,000 labelled screenings", () => {
  const kind = "postgres";
  let t: TestApp;
  let merchant: Merchant;
  beforeAll(async () => {
    t = await startTestApp(kind);
    merchant = await signedInMerchant(t, `hundred-k-${kind}@example.com`);
    const at = t.clock.now();
    // One statement: the screenings with their contributions, and a label on each (the stored
    // score carries which, from the insert to the labels).
    await t.prisma.$executeRawUnsafe(
      `WITH g AS (
         SELECT i, random() < 0.3 AS fraud, random() AS r1, random() AS r2, random() AS r3
         FROM generate_series(1, ${ROWS}) i),
       s AS (
         INSERT INTO "Screening" ("id", "accountId", "createdAt", "type", "decision", "score",
           "rules", "reasons", "monitored", "input", "contributions")
         SELECT gen_random_uuid()::text, $1, $2::timestamp - (i || ' seconds')::interval,
           (ARRAY['signup', 'login', 'checkout', 'trial_start'])[1 + i % 4], 'allow',
           CASE WHEN fraud THEN 90 ELSE 10 END,
           '{}', '[]', '[]', '{}',
           jsonb_build_array(
             '{"signal": "baseline", "points": 7, "detail": "start"}'::jsonb,
             jsonb_build_object('signal', 'random_email', 'points', 3, 'detail', 'x',
               'value', round((CASE WHEN fraud THEN 0.4 + 0.6 * r1 ELSE 0.6 * r1 END)::numeric, 3)),
             jsonb_build_object('signal', 'even_typing', 'points', 2, 'detail', 'x',
               'value', round(r2::numeric, 3)),
             CASE WHEN r3 < (CASE WHEN fraud THEN 0.6 ELSE 0.2 END)
               THEN '{"signal": "hosting_network", "points": 7, "detail": "x", "value": 1}'::jsonb END)
         FROM g
         RETURNING "id", "score")
       INSERT INTO "Label" ("id", "accountId", "subjectKind", "subjectId", "label", "source", "who", "createdAt")
       SELECT gen_random_uuid()::text, $1, 'screening', s."id",
         (CASE WHEN s."score" = 90 THEN 'fraud' ELSE 'legitimate' END)::"LabelValue", 'api', 'bench', $2::timestamp
       FROM s`,
      merchant.accountId,
      at.toISOString(),
    );
    // A real install's 100,000 screenings arrive over days, and its statistics follow them
    // (auto-analyze.ts). One statement of 100,000 is another matter: the analyzer's 5 s check
    // can land while it runs and record its pages with none of its rows, and a fit planned on
    // "1 row" joins labels to screenings by a full index scan each (past 120 s on this
    // machine, 2026-11-29). So the statistics are taken here, as the analyzer would have.
    await t.prisma.$executeRawUnsafe(`ANALYZE "Screening"`);
    await t.prisma.$executeRawUnsafe(`ANALYZE "Label"`);
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  });

  it("fits, backtests and stores it in under a minute, and screens meanwhile", async () => {
    const backend = await backendOf(t, merchant);
    const started = performance.now();
    const proposing = merchant.api.json<ScoreModelView>("/api/scoring/proposals", {
      method: "POST",
    });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const screened = performance.now();
    const answer = await backend.decide({
      type: "signup",
      email: "meanwhile@example.com",
      ip: "198.51.100.4",
    });
    const screenMs = performance.now() - screened;
    const made = await proposing;
    const tookMs = performance.now() - started;
    expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(200);
    const labels = made.body.metrics?.labels;
    console.log(
      `${kind}: proposal on ${ROWS} labelled screenings in ${(tookMs / 1000).toFixed(1)} s (server: ${made.body.metrics?.took_ms} ms); a screening meanwhile took ${screenMs.toFixed(0)} ms`,
    );
    expect((labels?.fraud ?? 0) + (labels?.legitimate ?? 0)).toBe(ROWS);
    expect(answer.decision).toBeTruthy();
    expect(tookMs).toBeLessThan(60_000);
    expect(screenMs).toBeLessThan(1_000);
  }, 120_000);
});
