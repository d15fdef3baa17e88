import { describe, expect, it } from "vitest";
import { reconnectDelay } from "./backoff.ts";

describe("reconnectDelay", () => {
  it.each([
    // failures so far, random → delay (ms)
    [0, 0.5, 1_000],
    [1, 0.5, 2_000],
    [2, 0.5, 4_000],
    [4, 0.5, 16_000],
    [5, 0.5, 30_000],
    [40, 0.5, 30_000],
    [0, 0, 800],
    [0, 1, 1_200],
    [3, 0, 6_400],
    [5, 1, 30_000],
    [5, 0, 24_000],
  ])("after %i failures with random %d: %i ms", (failures, random, delay) => {
    expect(reconnectDelay(failures, () => random)).toBe(delay);
  });
});
