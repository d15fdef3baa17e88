import { describe, expect, it } from "vitest";
import { charge, features, policy } from "../../../test/fixtures/engine.ts";
import { highRisk } from "./high-risk.ts";

describe("rule_high_risk", () => {
  it.each([
    { score: 82, threshold: 70, message: "risk score 82 above threshold 70" },
    { score: 71, threshold: 70, message: "risk score 71 above threshold 70" },
    { score: 70, threshold: 70, message: null },
    { score: 0, threshold: 70, message: null },
    { score: null, threshold: 70, message: null },
    { score: 100, threshold: 100, message: null },
    {
      score: 0,
      threshold: 0,
      message: "risk score 0 with threshold 0 (the strictest: every scored charge is blocked)",
    },
    { score: 5, threshold: 0, message: "risk score 5 above threshold 0" },
    { score: null, threshold: 0, message: null },
  ])("score $score at threshold $threshold → $message", ({ score, threshold, message }) => {
    const finding = highRisk.check(
      charge({ riskScore: score }),
      policy({ risk_level_threshold: threshold }),
      features(),
    );
    expect(finding?.message ?? null).toBe(message);
    if (finding) expect(finding).toMatchObject({ observed: score, limit: threshold });
  });

  it("never says a score of 0 is above a threshold of 0", () => {
    const finding = highRisk.check(
      charge({ riskScore: 0 }),
      policy({ risk_level_threshold: 0 }),
      features(),
    );
    expect(finding?.message).not.toMatch(/above/);
  });
});
