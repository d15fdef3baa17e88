/**
 * A backtest job on PostgreSQL runs in a process of its own (backtest-child.ts): progress
 * comes back from it, the process is gone when the job ends, a cancel kills it, and a job
 * whose process dies (the OOM killer, kill -9) or cannot reach the database fails with the
 * reason instead of staying "running". That its decisions are the live ones is covered over
 * HTTP in test/backtest, whose PostgreSQL runs go through this path; how jobs take turns,
 * in backtest-turns.int.test.ts and here.
 */

import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKTEST_SETTINGS } from "../../../test/helpers/backtest-settings.ts";
import { openTestDatabase } from "../../../test/helpers/databases.ts";
import type { Database } from "../../db/database.ts";
import { createBacktestRepository } from "./backtest.repository.ts";
import { createBacktestService } from "./backtest.service.ts";
import { backtestInChildProcess } from "./backtest-child.ts";

const SETTINGS = BACKTEST_SETTINGS;

/** This process's live child processes (every thread's), from /proc. */
function children(): number[] {
  const pids: number[] = [];
  for (const task of readdirSync("/proc/self/task")) {
    const text = readFileSync(`/proc/self/task/${task}/children`, "utf8").trim();
    if (text) pids.push(...text.split(" ").map(Number));
  }
  return pids;
}

async function newChild(before: number[]): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const pid = children().find((p) => !before.includes(p));
    if (pid) return pid;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("no child process appeared");
}

describe.runIf(process.env.TEST_DATABASE_URL)("backtest job in a process of its own", () => {
  let db: Database;
  let url: string;
  const job = (
    signal = new AbortController().signal,
    progress: number[][] = [],
    accountId = "acct-child",
  ) => ({
    accountId,
    digestKey: "k".repeat(64),
    settings: SETTINGS,
    now: new Date(),
    truths: [],
    onProgress: (processed: number, total: number) => void progress.push([processed, total]),
    signal,
  });

  /** The service running each job in a child process on the test database, with `limits`. */
  const childService = (limits: { maxRunning?: number; maxMs?: number }) =>
    createBacktestService({
      repo: createBacktestRepository(db.sql),
      policy: { features: () => ({ disposableDomains: new Set<string>() }) },
      now: () => new Date(),
      log: { error: () => {} },
      runJob: backtestInChildProcess(url),
      digestKeyOf: () => "k".repeat(64),
      ...limits,
    });

  beforeAll(async () => {
    db = await openTestDatabase("postgres");
    url = db.url as string;
    await db.sql.query(`INSERT INTO "Account" (id) VALUES ('acct-child'), ('acct-other')`);
  });
  afterAll(async () => {
    await db?.close();
  });

  it("reports progress and the result, and its process has ended when the job has", async () => {
    const before = children();
    const progress: number[][] = [];
    const result = await backtestInChildProcess(url)(job(undefined, progress));
    expect(result).toMatchObject({ changed: 0, screenings: { total: 0 }, charges: { total: 0 } });
    expect(progress).toContainEqual([0, 0]);
    expect(children().filter((pid) => !before.includes(pid))).toEqual([]);
  });

  it("cancel kills the process", async () => {
    const before = children();
    const abort = new AbortController();
    const running = backtestInChildProcess(url)(job(abort.signal));
    const pid = await newChild(before);
    abort.abort(new Error("cancelled"));
    await expect(running).rejects.toThrow("cancelled");
    expect(children()).not.toContain(pid);
  });

  it("fails with the reason when its process is killed", async () => {
    const before = children();
    const running = backtestInChildProcess(url)(job());
    process.kill(await newChild(before), "SIGKILL");
    await expect(running).rejects.toThrow("backtest process failed: exit by SIGKILL");
  });

  it("runs at most maxRunning processes at once; a job waiting for its turn can be cancelled", async () => {
    const service = childService({ maxRunning: 1 });
    const before = children();
    service.start("acct-child", SETTINGS);
    service.start("acct-other", SETTINGS);
    await newChild(before);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(children().filter((pid) => !before.includes(pid))).toHaveLength(1);
    expect(service.cancel("acct-other")?.status).toBe("cancelled");
    await expect.poll(() => service.status("acct-child")?.status, { timeout: 10_000 }).toBe("done");
    // The slot is free again.
    service.start("acct-other", SETTINGS);
    await expect.poll(() => service.status("acct-other")?.status, { timeout: 10_000 }).toBe("done");
  });

  it("gives the process a heap ceiling and none of the server's secrets", async () => {
    process.env.ENCRYPTION_KEY_CANARY = "never-in-a-child";
    const before = children();
    const running = backtestInChildProcess(url, { heapMb: 300 })(job());
    const pid = await newChild(before);
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    await running;
    delete process.env.ENCRYPTION_KEY_CANARY;
    const names = environ.map((entry) => entry.slice(0, entry.indexOf("="))).filter(Boolean);
    expect(names).toContain("WARDEN_BACKTEST_URL");
    expect(names).not.toContain("ENCRYPTION_KEY_CANARY");
    expect(names).not.toContain("TEST_DATABASE_URL");
    expect(cmdline).toContain("--max-old-space-size=300");
  });

  it("stops a job past its wall-time limit and says so", async () => {
    const service = childService({ maxMs: 50 });
    service.start("acct-child", SETTINGS);
    await expect
      .poll(() => service.status("acct-child")?.status, { timeout: 10_000 })
      .toBe("failed");
    expect(service.status("acct-child")?.error).toBe(
      "The backtest took longer than 0.05 s and was stopped; try fewer days.",
    );
  });

  it("fails with the reason when the database cannot be reached", async () => {
    const unreachable = "postgresql://postgres@127.0.0.1:1/nowhere";
    await expect(backtestInChildProcess(unreachable)(job())).rejects.toThrow(/ECONNREFUSED/);
  });
});
