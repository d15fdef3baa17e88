import { describe, expect, it } from "vitest";
import { serially } from "./serially.ts";

describe("serially", () => {
  it("runs once more after a run that was called again meanwhile, and never twice at once", async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    const release: (() => void)[] = [];
    const trigger = serially(async () => {
      runs++;
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => release.push(resolve));
      running--;
    });
    trigger();
    for (let i = 0; i < 10; i++) trigger();
    expect(runs).toBe(1);
    release.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runs).toBe(2);
    release.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runs).toBe(2);
    expect(most).toBe(1);
  });

  it("goes on after a failed run", async () => {
    let runs = 0;
    const trigger = serially(async () => {
      runs++;
      throw new Error("offline");
    });
    trigger();
    await new Promise((resolve) => setTimeout(resolve, 0));
    trigger();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runs).toBe(2);
  });
});
