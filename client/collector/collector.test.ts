/** The collector's pure parts: the key interval spread and the device hash. */
import { describe, expect, it } from "vitest";
import { intervalSpread } from "./behavior.ts";
import { hash } from "./device.ts";

describe("intervalSpread", () => {
  it.each([
    { times: [], spread: null },
    { times: [0, 100], spread: null },
    { times: [0, 100, 200, 300], spread: 0 },
    { times: [0, 100, 300], spread: 50 },
    { times: [0, 50, 100, 250, 300], spread: 43.3 },
  ])("$times → $spread", ({ times, spread }) => {
    expect(intervalSpread(times)).toBe(spread);
  });
});

describe("hash", () => {
  it("is 28 hex digits, the same for the same text and different for another", () => {
    expect(hash("1920x1080x24|8|en-US")).toMatch(/^[0-9a-f]{28}$/);
    expect(hash("1920x1080x24|8|en-US")).toBe(hash("1920x1080x24|8|en-US"));
    expect(hash("1920x1080x24|8|en-US")).not.toBe(hash("1920x1080x24|8|en-GB"));
    expect(hash("")).toMatch(/^[0-9a-f]{28}$/);
  });
});
