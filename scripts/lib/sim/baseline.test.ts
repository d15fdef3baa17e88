import { describe, expect, it } from "vitest";
import { type CiBaseline, ciRunOf, compareWithBaseline } from "./baseline.ts";
import type { Outcome } from "./driver.ts";
import { outcomeOf } from "./outcome-fixture.ts";
import { figuresOf } from "./report.ts";

const outcome = (attack: boolean, decision: Outcome["decision"], actor: string): Outcome =>
  outcomeOf(attack ? "farm" : "home", attack, actor, decision);

// Recall 1/2, one ordinary event in four blocked, none reviewed.
const now = figuresOf(
  "t",
  [
    outcome(true, "block", "a"),
    outcome(true, "allow", "b"),
    outcome(false, "block", "p"),
    ...["q", "r", "s"].map((p) => outcome(false, "allow", p)),
  ],
  ["farm"],
);
const ci = (recorded: Partial<CiBaseline["figures"][string]>): CiBaseline => ({
  seed: 1,
  events: 10,
  hours: 1,
  tolerance: { recall: 0.02, blocked: 0.005, reviewed: 0.01 },
  figures: {
    t: {
      recall: 0.5,
      targetedRecall: 0.5,
      ordinaryBlocked: 0.25,
      ordinaryReviewed: 0,
      ...recorded,
    },
  },
});

describe("compareWithBaseline", () => {
  it.each([
    { name: "as recorded", recorded: {}, worse: [] },
    { name: "recall fell", recorded: { recall: 0.6 }, worse: ["t: recall 0.5 < 0.6"] },
    {
      name: "targeted recall fell",
      recorded: { targetedRecall: 0.9 },
      worse: ["t: targeted recall 0.5 < 0.9"],
    },
    {
      name: "more ordinary events blocked",
      recorded: { ordinaryBlocked: 0.2 },
      worse: ["t: ordinary blocked 0.25 > 0.2"],
    },
    {
      name: "within the tolerance",
      recorded: { recall: 0.515, ordinaryBlocked: 0.246 },
      worse: [],
    },
  ])("$name", ({ recorded, worse }) => {
    expect(compareWithBaseline([now], ci(recorded))).toEqual(worse);
  });

  it("a configuration with nothing recorded fails", () => {
    expect(compareWithBaseline([{ ...now, name: "new" }], ci({}))).toEqual([
      "new: no recorded figures",
    ]);
  });
});

describe("ciRunOf", () => {
  it.each([
    [
      "a run recorded before worlds: the classic mix, without the careful attacks",
      undefined,
      "classic",
    ],
    ["a run that names its world", "default", "default"],
  ])("%s", (_name, world, played) => {
    const run = ciRunOf({ ...ci({}), ...(world ? { world } : {}) });
    expect(run.mix.world).toBe(played);
  });
});
