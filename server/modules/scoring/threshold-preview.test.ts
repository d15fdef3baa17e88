import { describe, expect, it } from "vitest";
import { SCREEN_TYPES } from "../../../shared/schemas/screen-types.ts";
import type { Thresholds } from "../../../shared/score/weights.ts";
import { decisionUnder, type PreviewGroup, tallyPreview } from "./threshold-preview.ts";

const T: Thresholds = { signup: { review: 60, block: 80 } };

describe("decisionUnder", () => {
  it.each([
    // type, score, rules' verdict, thresholds → decision
    ["signup", 10, "none", T, "allow"],
    ["signup", 60, "none", T, "review"],
    ["signup", 79, "none", T, "review"],
    ["signup", 80, "none", T, "block"],
    ["signup", 100, "none", T, "block"],
    // the rules' own verdict stands whatever the score
    ["signup", 0, "block", T, "block"],
    ["signup", 0, "review", T, "review"],
    // a block by score beats the rules' review; a review by score adds nothing to it
    ["signup", 85, "review", T, "block"],
    ["signup", 65, "review", T, "review"],
    // an allow-list entry decided: allowed, whatever the score
    ["signup", 100, "allowed", T, "allow"],
    // a type without thresholds: only the rules act
    ["login", 100, "none", T, "allow"],
    ["login", 100, "review", T, "review"],
    // a half threshold: review only, or block only
    ["signup", 95, "none", { signup: { review: 50, block: null } }, "review"],
    ["signup", 60, "none", { signup: { review: null, block: 90 } }, "allow"],
    ["signup", 90, "none", { signup: { review: null, block: 90 } }, "block"],
    ["signup", 100, "none", { signup: { review: null, block: null } }, "allow"],
  ] as const)("%s scored %i with rules %s → %s", (type, score, rules, thresholds, decision) => {
    expect(decisionUnder({ type, score, rules }, thresholds)).toBe(decision);
  });

  it("a score held at review on fewer than two families of evidence stays held under any thresholds", () => {
    expect(decisionUnder({ type: "signup", score: 79, rules: "none", held: true }, T)).toBe(
      "review",
    );
    const lower = { signup: { review: 40, block: 50 } };
    expect(decisionUnder({ type: "signup", score: 79, rules: "none", held: true }, lower)).toBe(
      "review",
    );
    expect(decisionUnder({ type: "signup", score: 79, rules: "none" }, lower)).toBe("block");
    expect(decisionUnder({ type: "signup", score: 79, rules: "block", held: true }, lower)).toBe(
      "block",
    );
  });
});

describe("tallyPreview", () => {
  const groups: PreviewGroup[] = [
    { type: "signup", score: 90, rules: "none", truth: "fraud", count: 3 },
    { type: "signup", score: 70, rules: "none", truth: "fraud", count: 2 },
    { type: "signup", score: 70, rules: "none", truth: "legitimate", count: 4 },
    { type: "signup", score: 20, rules: "none", truth: null, count: 100 },
    { type: "signup", score: 20, rules: "block", truth: "fraud", count: 1 },
    { type: "signup", score: 95, rules: "allowed", truth: "legitimate", count: 5 },
    { type: "checkout", score: 70, rules: "review", truth: null, count: 7 },
  ];

  it("counts blocked, reviewed and the labelled ones under today's and the proposed thresholds", () => {
    const proposed: Thresholds = { signup: { review: 50, block: 65 } };
    const { total, types } = tallyPreview(groups, T, proposed);
    const signup = types.find((t) => t.type === "signup");
    expect(signup).toEqual({
      type: "signup",
      screenings: 115,
      fraud: 6,
      legitimate: 9,
      now: {
        blocked: 4,
        reviewed: 6,
        fraud_blocked: 4,
        fraud_reviewed: 2,
        legitimate_blocked: 0,
        legitimate_reviewed: 4,
      },
      proposed: {
        blocked: 10,
        reviewed: 0,
        fraud_blocked: 6,
        fraud_reviewed: 0,
        legitimate_blocked: 4,
        legitimate_reviewed: 0,
      },
      now_threshold: { review: 60, block: 80 },
      proposed_threshold: { review: 50, block: 65 },
    });
    expect(total.screenings).toBe(122);
    expect(total.now.reviewed).toBe(13);
    expect(total.proposed.reviewed).toBe(7);
    expect(types.map((t) => t.type)).toEqual([...SCREEN_TYPES]);
  });

  it("counts the same under the same thresholds, and nothing from no screenings", () => {
    const { total } = tallyPreview(groups, T, T);
    expect(total.proposed).toEqual(total.now);
    expect(tallyPreview([], T, {}).total).toMatchObject({ screenings: 0, now: { blocked: 0 } });
  });
});
