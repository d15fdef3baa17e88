/**
 * A backtest job on PostgreSQL runs in a process of its own (backtest-child.ts): progress
 * comes back from it, the process is gone when the job ends, a cancel kills it, and a job
 * whose process dies (the OOM killer, kill -9) or cannot reach the database fails with the
 * reason instead of staying "running". That its decisions are the live ones is covered over
 * HTTP in test/backtest, whose PostgreSQL runs go through this path.
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BLOCKLIST } from "../../../shared/schemas/blocklist.ts";
import { DEFAULT_RULES } from "../../../shared/schemas/rules.ts";
import { DEFAULT_TEMPLATES } from "../../../shared/schemas/templates.ts";
import { openTestDatabase } from "../../../test/helpers/databases.ts";
import type { Database } from "../../db/database.ts";
import { backtestInChildProcess } from "./backtest-child.ts";

const SETTINGS = {
  rules: { ...DEFAULT_RULES, rule_signup_velocity: true },
  templates: DEFAULT_TEMPLATES,
  rule_settings: {},
  blocklist: DEFAULT_BLOCKLIST,
  days: 30,
  unsaved: [],
};

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
  const job = (signal = new AbortController().signal, progress: number[][] = []) => ({
    accountId: "acct-child",
    settings: SETTINGS,
    now: new Date(),
    onProgress: (processed: number, total: number) => void progress.push([processed, total]),
    signal,
  });

  beforeAll(async () => {
    db = await openTestDatabase("postgres");
    url = db.url as string;
    await db.sql.query(`INSERT INTO "Account" (id) VALUES ('acct-child')`);
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

  it("runs at most maxProcesses at once; a job waiting for its turn can be cancelled", async () => {
    const run = backtestInChildProcess(url, 1);
    const before = children();
    const first = run(job());
    const abort = new AbortController();
    const second = run(job(abort.signal));
    await newChild(before);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(children().filter((pid) => !before.includes(pid))).toHaveLength(1);
    abort.abort(new Error("cancelled while waiting"));
    await expect(second).rejects.toThrow("cancelled while waiting");
    await expect(first).resolves.toMatchObject({ changed: 0 });
    // The slot is free again.
    await expect(run(job())).resolves.toMatchObject({ changed: 0 });
  });

  it("fails with the reason when the database cannot be reached", async () => {
    const unreachable = "postgresql://postgres@127.0.0.1:1/nowhere";
    await expect(backtestInChildProcess(unreachable)(job())).rejects.toThrow(/ECONNREFUSED/);
  });
});
