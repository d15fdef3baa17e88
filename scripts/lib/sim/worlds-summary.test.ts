import { describe, expect, it } from "vitest";
import type { ConfigurationFigures } from "./report.ts";
import { overCeilings, type WorldRun, worstOf } from "./worlds-summary.ts";

/** A configuration's figures with only what the summary reads. */
function figures(name: string, blocked: number, reviewed: number, people: number, recall: number) {
  return {
    name,
    attacks: { recall },
    ordinary: { blockedRate: blocked, reviewedRate: reviewed, peopleBlockedRate: people },
  } as unknown as ConfigurationFigures;
}

const runs: WorldRun[] = [
  { world: "random-1", seed: 1, figures: [figures("all", 0.001, 0.01, 0.004, 0.9)] },
  { world: "random-2", seed: 2, figures: [figures("all", 0.008, 0.015, 0.002, 0.95)] },
  { world: "random-3", seed: 3, figures: [figures("all", 0.002, 0.03, 0.02, 0.7)] },
];

describe("worstOf", () => {
  it("reads each figure's worst world, not the mean, and names it", () => {
    const [row] = worstOf(runs);
    expect(row).toMatchObject({
      configuration: "all",
      worlds: 3,
      blocked: { value: 0.008, world: "random-2" },
      reviewed: { value: 0.03, world: "random-3" },
      peopleBlocked: { value: 0.02, world: "random-3" },
      recall: { value: 0.7, world: "random-3" },
    });
    // The mean of blocked is under the ceiling: the worst world is what fails.
    expect(row?.mean.blocked).toBeCloseTo(0.011 / 3);
  });

  it("overCeilings lists each worst-world figure over its ceiling with its world", () => {
    expect(overCeilings(worstOf(runs))).toEqual([
      "all: ordinary blocked 0.8% in random-2 (ceiling 0.5%)",
      "all: ordinary reviewed 3.0% in random-3 (ceiling 2.0%)",
      "all: ordinary people blocked 2.0% in random-3 (ceiling 1.0%)",
    ]);
    expect(overCeilings(worstOf(runs.slice(0, 1)))).toEqual([]);
  });
});
