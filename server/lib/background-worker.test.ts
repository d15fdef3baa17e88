import { describe, expect, it } from "vitest";
import { createBackgroundWorker } from "./background-worker.ts";
import { currentRequest, runInRequest } from "./request-context.ts";

/** A run that waits until released, counting how many runs started and how many overlapped. */
function gatedRun() {
  let started = 0;
  let active = 0;
  let overlapped = 0;
  const gates: (() => void)[] = [];
  return {
    get started() {
      return started;
    },
    get overlapped() {
      return overlapped;
    },
    releaseAll() {
      for (const release of gates.splice(0)) release();
    },
    run: async () => {
      started += 1;
      active += 1;
      if (active > 1) overlapped += 1;
      await new Promise<void>((resolve) => gates.push(resolve));
      active -= 1;
      return started;
    },
  };
}

describe("background worker", () => {
  it("runs one at a time, and a request during a run gets exactly one more run after it", async () => {
    const job = gatedRun();
    const worker = createBackgroundWorker(job.run, { pollMs: 60_000, onError: () => -1 });
    const first = worker.runSoon();
    const second = worker.runSoon();
    const third = worker.runSoon();
    expect(job.started).toBe(1);
    job.releaseAll();
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    expect(await third).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(job.started).toBe(2);
    job.releaseAll();
    await worker.stop();
    expect(job.overlapped).toBe(0);
  });

  it("does nothing on a kick until started, and stops polling when stopped", async () => {
    let runs = 0;
    const worker = createBackgroundWorker(async () => ++runs, { pollMs: 60_000, onError: () => 0 });
    worker.kick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toBe(0);
    worker.start();
    await worker.stop();
    expect(runs).toBe(1);
    worker.kick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toBe(1);
  });

  it("runs for whoever asked: a request's run and the one after it carry that request", async () => {
    let release = () => {};
    const seen: (string | undefined)[] = [];
    const worker = createBackgroundWorker(
      async () => {
        seen.push(currentRequest()?.id);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      { pollMs: 60_000, onError: () => {} },
    );
    const first = runInRequest({ id: "req-a", log: {} }, () => worker.runSoon());
    runInRequest({ id: "req-b", log: {} }, () => worker.runSoon());
    runInRequest({ id: "req-c", log: {} }, () => worker.runSoon());
    release();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await worker.stop();
    void worker.runSoon();
    release();
    await worker.stop();
    // A's run, one more run for B (who asked first during it), then one that nobody's request asked for.
    expect(seen).toEqual(["req-a", "req-b", undefined]);
  });

  it("answers a failed run with onError's value and keeps working", async () => {
    let fail = true;
    const worker = createBackgroundWorker(
      async () => {
        if (fail) throw new Error("database away");
        return 7;
      },
      { pollMs: 60_000, onError: () => 0 },
    );
    expect(await worker.runSoon()).toBe(0);
    fail = false;
    expect(await worker.runSoon()).toBe(7);
  });
});
