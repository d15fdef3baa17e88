import { describe, expect, it } from "vitest";
import type { Contribution } from "../../../../shared/schemas/screening.ts";
import { breakdownOf, formatPoints, heldSentence, unweightedSentence } from "./score-format.ts";

const baseline = (points: number): Contribution => ({
  signal: "baseline",
  points,
  detail: "where a signup starts",
});
const signal = (name: string, points: number, detail = name): Contribution => ({
  signal: name,
  points,
  detail,
  value: 1,
});

describe("score format", () => {
  it.each([
    [22, "+22"],
    [-10, "−10"],
    [0, "0"],
  ])("writes %i points as %s", (points, text) => {
    expect(formatPoints(points)).toBe(text);
  });

  it("has no breakdown for a screening stored before the risk score", () => {
    expect(breakdownOf([])).toBeNull();
  });

  it("lists the baseline first, then the signals with points, and keeps the ones with none apart", () => {
    const b = breakdownOf([
      baseline(20),
      signal("linked_last_hour", 22, "linked to 6 accounts first seen in the last hour"),
      signal("account_new", 18, "account 3 min old"),
      signal("returning_account", -10, "returning account"),
      signal("webdriver", 0),
      signal("fast_submit", 0),
    ]);
    expect(b?.lines.map((l) => [l.signal, l.label, l.kind])).toEqual([
      ["baseline", "20", "baseline"],
      ["linked_last_hour", "+22", "up"],
      ["account_new", "+18", "up"],
      ["returning_account", "−10", "down"],
    ]);
    expect(b?.unweighted.map((c) => c.signal)).toEqual(["webdriver", "fast_submit"]);
    expect(b?.sum).toBe(50);
    expect(b?.held).toBeNull();
  });

  it("lays the bars end to end on the 0–100 track, so the last ends at the sum", () => {
    const b = breakdownOf([baseline(20), signal("a", 22), signal("b", 18), signal("c", -10)]);
    expect(b?.lines.map((l) => [l.from, l.width])).toEqual([
      [0, 20],
      [20, 22],
      [42, 18],
      [50, 10],
    ]);
  });

  it.each([
    ["past 100", [baseline(60), signal("a", 40), signal("b", 40)], 140, 100],
    ["under 0", [baseline(-8), signal("a", -12), signal("b", 5)], -15, 0],
  ] as const)("says when the sum went %s and the score was held", (_, parts, sum, held) => {
    const b = breakdownOf(parts);
    expect(b?.sum).toBe(sum);
    expect(b?.held).toBe(held);
    expect(heldSentence({ sum, held })).toBe(
      `The points add up to ${String(sum).replace("-", "−")}; the score is held to ${held}.`,
    );
    // The track stretches to hold every bar: none starts before it or ends past it.
    for (const line of b?.lines ?? []) {
      expect(line.from).toBeGreaterThanOrEqual(0);
      expect(line.from + line.width).toBeLessThanOrEqual(100.01);
    }
  });

  it("writes a baseline under 0 with a minus sign, and says nothing when nothing was held", () => {
    expect(breakdownOf([baseline(-8), signal("a", 20)])?.lines[0]?.label).toBe("−8");
    expect(heldSentence({ sum: 64, held: null })).toBeNull();
  });

  it.each([
    [1, "1 more signal with no weight"],
    [3, "3 more signals with no weight"],
  ])("counts %i unweighted signals", (n, text) => {
    expect(unweightedSentence(n)).toBe(text);
  });
});
