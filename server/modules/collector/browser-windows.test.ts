/** The collector's per-browser windows: counting, a new window each minute, and eviction. */
import { describe, expect, it } from "vitest";
import { createBrowserWindows } from "./browser-windows.ts";

describe("browser windows", () => {
  it.each([
    // [limit, hits at these ms, expected answers (null: allowed; n: retry after n s)]
    [2, [0, 1, 2], [null, null, 60]],
    [2, [0, 1, 30_000], [null, null, 30]],
    [2, [0, 1, 2, 60_000], [null, null, 60, null]],
    [1, [0, 59_999, 60_000, 60_001], [null, 1, null, 60]],
  ])("with a limit of %i, hits at %j answer %j", (limit, times, expected) => {
    const windows = createBrowserWindows({ limit, maxBuckets: 10 });
    expect(times.map((at) => windows.hit("key:203.0.113.7", at))).toEqual(expected);
  });

  it("when full, drops the least recently used window, not the running ones", () => {
    const windows = createBrowserWindows({ limit: 1, maxBuckets: 1000 });
    // A real browser spends its budget, and another one spends its own and goes quiet.
    expect(windows.hit("key:customer", 0)).toBeNull();
    expect(windows.hit("key:quiet", 0)).toBeNull();
    // Someone opens windows from 6,000 networks within the minute; the customer keeps trying.
    for (let i = 0; i < 6000; i++) {
      if (i % 500 === 0) expect(windows.hit("key:customer", 1)).toBe(60);
      windows.hit(`key:2001:db8:${i}::`, 1);
    }
    expect(windows.size()).toBe(1000);
    // The customer's window still runs: still refused. The quiet one was dropped.
    expect(windows.hit("key:customer", 2)).toBe(60);
    expect(windows.hit("key:quiet", 2)).toBeNull();
  });
});
