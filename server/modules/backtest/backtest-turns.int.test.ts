/**
 * Backtest jobs take turns on the embedded database too, where they run in the server's own
 * process: one at a time there, one per account whatever the limit, and the wall-time limit
 * counts from a job's turn, not from when it was asked for. The repository is the real one
 * on a real database; it only takes longer for the accounts told to (as a large history
 * would) and notes when each job starts and ends.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKTEST_SETTINGS } from "../../../test/helpers/backtest-settings.ts";
import { openTestDatabase } from "../../../test/helpers/databases.ts";
import type { Database } from "../../db/database.ts";
import { type BacktestRepository, createBacktestRepository } from "./backtest.repository.ts";
import { createBacktestService } from "./backtest.service.ts";

const SETTINGS = BACKTEST_SETTINGS;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("backtest jobs take turns in-process (embedded)", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase("embedded");
  });
  afterAll(async () => {
    await db?.close();
  });

  function service({ maxRunning = 1, maxMs = 60_000, takes = {} as Record<string, number> }) {
    const events: string[] = [];
    const real = createBacktestRepository(db.sql);
    const repo: BacktestRepository = {
      ...real,
      seeds(accountId, from, keep) {
        events.push(`start ${accountId}`);
        return real.seeds(accountId, from, keep);
      },
      async *screenings(accountId, window) {
        await sleep(takes[accountId] ?? 0);
        yield* real.screenings(accountId, window);
        events.push(`end ${accountId}`);
      },
    };
    const backtest = createBacktestService({
      repo,
      policy: { features: () => ({ disposableDomains: new Set<string>() }) },
      now: () => new Date(),
      log: { error: () => {} },
      digestKeyOf: () => "k".repeat(64),
      maxMs,
      maxRunning,
    });
    const finished = (accountId: string) =>
      expect
        .poll(() => backtest.status(accountId)?.status, { timeout: 10_000 })
        .not.toBe("running");
    return { backtest, events, finished };
  }

  it("runs one job at a time: another account's waits for its turn, shown as running", async () => {
    const { backtest, events, finished } = service({ maxRunning: 1, takes: { a: 300 } });
    backtest.start("a", SETTINGS);
    backtest.start("b", SETTINGS);
    await sleep(100);
    expect(backtest.status("b")).toMatchObject({ status: "running", processed: 0 });
    await finished("a");
    await finished("b");
    expect(events).toEqual(["start a", "end a", "start b", "end b"]);
    expect(backtest.status("b")?.status).toBe("done");
  });

  it("runs one job per account: a cancelled job still finishing holds its account's turn, not another's", async () => {
    const { backtest, events, finished } = service({ maxRunning: 2, takes: { a: 300 } });
    backtest.start("a", SETTINGS);
    await sleep(50);
    // Cancelled, the job still runs until its next batch; a new one of the same account waits.
    backtest.cancel("a");
    backtest.start("a", SETTINGS);
    backtest.start("b", SETTINGS);
    await finished("b");
    await finished("a");
    expect(events).toEqual(["start a", "start b", "end b", "end a", "start a", "end a"]);
  });

  it("counts the wall-time limit from a job's turn, not from when it was asked for", async () => {
    // Each of a and b runs 400 ms, under the 700 ms limit; c waits 800 ms for its turn.
    const { backtest, events, finished } = service({
      maxRunning: 1,
      maxMs: 700,
      takes: { a: 400, b: 400 },
    });
    for (const accountId of ["a", "b", "c"]) backtest.start(accountId, SETTINGS);
    for (const accountId of ["a", "b", "c"]) await finished(accountId);
    expect(events).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(backtest.status("c")).toMatchObject({ status: "done", error: null });
  });
});
