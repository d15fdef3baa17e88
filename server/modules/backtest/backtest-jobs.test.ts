/**
 * The backtest job per account: a second start while one runs returns the running one,
 * progress is visible while it runs, cancel stops it, and another account has its own job.
 * The repository here is a gate that hands out one batch when told (the reads themselves
 * are covered over HTTP in test/backtest).
 */

import { disposableEmailBlocklistSet } from "disposable-email-domains-js";
import { describe, expect, it } from "vitest";
import { BACKTEST_SETTINGS } from "../../../test/helpers/backtest-settings.ts";
import type { BacktestRepository } from "./backtest.repository.ts";
import { createBacktestService } from "./backtest.service.ts";
import type { StoredScreeningRow } from "./backtest-replay.ts";

const SETTINGS = { ...BACKTEST_SETTINGS, unsaved: ["Signup velocity (Signups per IP per hour 1)"] };

function gatedRepo() {
  let open: () => void = () => {};
  const gate = () =>
    new Promise<void>((resolve) => {
      open = resolve;
    });
  const row = (n: number): StoredScreeningRow => ({
    id: `s${n}`,
    createdAt: new Date(1_800_000_000_000 + n),
    input: { type: "signup", ip: "198.51.100.1" } as StoredScreeningRow["input"],
    collected: null,
    decision: "allow",
  });
  const repo = {
    totals: async () => ({ screenings: 4, charges: 0, notJudged: 0 }),
    settingsSavedAt: async () => null,
    async *seeds() {},
    async *screenings() {
      for (const n of [0, 2]) {
        await gate();
        yield [row(n), row(n + 1)];
      }
    },
    async *charges() {},
    refundHistory: async () => [],
    allowEntries: async () => [],
  } as unknown as BacktestRepository;
  return { repo, next: () => open() };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("backtest jobs", () => {
  const features = { disposableDomains: disposableEmailBlocklistSet() };
  const make = (repo: BacktestRepository) =>
    createBacktestService({
      repo,
      policy: { features: () => features },
      now: () => new Date(1_800_000_100_000),
      log: { error: () => {} },
      digestKeyOf: () => "k".repeat(64),
    });

  it("runs one job per account, shows progress, and finishes with the result", async () => {
    const { repo, next } = gatedRepo();
    const service = make(repo);
    const first = service.start("a", SETTINGS);
    expect(first?.status).toBe("running");
    expect(service.start("a", { ...SETTINGS, days: 5 })?.id).toBe(first?.id);
    expect(service.status("b")).toBeNull();
    await tick();
    next();
    await tick();
    expect(service.status("a")).toMatchObject({ status: "running", processed: 2, total: 4 });
    next();
    await tick();
    const done = service.status("a");
    expect(done).toMatchObject({ id: first?.id, status: "done", processed: 4, total: 4 });
    // What the page said it ran with stays with the job, for a later poll (a reload).
    expect(done?.unsaved).toEqual(["Signup velocity (Signups per IP per hour 1)"]);
    expect(done?.result?.screenings.total).toBe(4);
    expect(service.start("a", SETTINGS)?.id).not.toBe(first?.id);
  });

  it("cancel stops the running job", async () => {
    const { repo, next } = gatedRepo();
    const service = make(repo);
    service.start("a", SETTINGS);
    await tick();
    expect(service.cancel("a")?.status).toBe("cancelled");
    next();
    await tick();
    expect(service.status("a")).toMatchObject({ status: "cancelled", result: null });
  });

  it("stop cancels every running job (the server is closing)", async () => {
    const { repo, next } = gatedRepo();
    const service = make(repo);
    service.start("a", SETTINGS);
    service.start("b", SETTINGS);
    await tick();
    service.stop();
    next();
    await tick();
    expect(service.status("a")).toMatchObject({ status: "cancelled", result: null });
    expect(service.status("b")).toMatchObject({ status: "cancelled", result: null });
  });
});
