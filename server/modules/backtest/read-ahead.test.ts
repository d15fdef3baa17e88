/**
 * readAhead: the same batches in the same order, the next one asked for before the current
 * one is handed out, a failed read reported where it is awaited, and the source closed when
 * the reader stops early (a cancelled backtest).
 */
import { describe, expect, it } from "vitest";
import { readAhead } from "./read-ahead.ts";

function source(batches: number, failAt = -1) {
  const log: string[] = [];
  async function* read() {
    try {
      for (let n = 0; n < batches; n++) {
        log.push(`read ${n}`);
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (n === failAt) throw new Error(`read ${n} failed`);
        yield n;
      }
    } finally {
      log.push("closed");
    }
  }
  return { log, batches: read() };
}

describe("readAhead", () => {
  it("yields every batch in order, asking for the next before handing out the current", async () => {
    const { log, batches } = source(3);
    const seen: number[] = [];
    for await (const n of readAhead(batches)) {
      // By the time batch n is handed out, batch n + 1 is being read.
      expect(log).toContain(`read ${Math.min(n + 1, 2)}`);
      seen.push(n);
    }
    expect(seen).toEqual([0, 1, 2]);
    expect(log.at(-1)).toBe("closed");
  });

  it("reports a failed read where the reader awaits it", async () => {
    const { batches } = source(3, 1);
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const n of readAhead(batches)) seen.push(n);
      })(),
    ).rejects.toThrow("read 1 failed");
    expect(seen).toEqual([0]);
  });

  it("closes the source when the reader stops early", async () => {
    const { log, batches } = source(10);
    for await (const n of readAhead(batches)) {
      if (n === 1) break;
    }
    expect(log.at(-1)).toBe("closed");
    expect(log.filter((line) => line.startsWith("read")).length).toBeLessThanOrEqual(3);
  });
});
