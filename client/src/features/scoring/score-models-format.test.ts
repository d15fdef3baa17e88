import { describe, expect, it } from "vitest";
import type { ModelMetrics } from "../../../../shared/schemas/score-models.ts";
import {
  backtestRows,
  confirmedText,
  labelsText,
  pointsText,
  share,
  signalName,
  thresholdsText,
  warningsText,
} from "./score-models-format.ts";

const METRICS: ModelMetrics = {
  labels: {
    fraud: 61,
    legitimate: 50,
    from: { labels: 100, reviews: 10, stripe: 1 },
    capped: false,
  },
  compared_with: "default-1",
  thresholds: { signup: { review: 65, block: 80 } },
  folds: 5,
  lambda: 10,
  labelled: {
    current: { fraud: { blocked: 10, reviewed: 20 }, legitimate: { blocked: 1, reviewed: 4 } },
    proposed: { fraud: { blocked: 30, reviewed: 20 }, legitimate: { blocked: 0, reviewed: 5 } },
  },
  recent: {
    days: 30,
    screenings: 1200,
    capped: false,
    current: { blocked: 12, reviewed: 40 },
    proposed: { blocked: 30, reviewed: 38 },
  },
  changes: [],
  took_ms: 900,
};

describe("share", () => {
  it.each([
    [30, 61, "30 of 61 (49%)"],
    [0, 50, "0 of 50 (0%)"],
    [1200, 1200, "1,200 of 1,200 (100%)"],
    [0, 0, "0 of 0"],
  ])("%i of %i reads %s", (part, of, text) => {
    expect(share(part, of)).toBe(text);
  });
});

describe("backtestRows", () => {
  it("puts current and proposed side by side: labelled fraud caught, legitimate stopped, the last days", () => {
    expect(backtestRows(METRICS).map((r) => [r.key, r.current, r.proposed])).toEqual([
      ["fraud-caught", "30 of 61 (49%)", "50 of 61 (82%)"],
      ["fraud-blocked", "10 of 61 (16%)", "30 of 61 (49%)"],
      ["legitimate-blocked", "1 of 50 (2%)", "0 of 50 (0%)"],
      ["legitimate-reviewed", "4 of 50 (8%)", "5 of 50 (10%)"],
      ["recent-blocked", "12 of 1,200 (1%)", "30 of 1,200 (3%)"],
      ["recent-reviewed", "40 of 1,200 (3%)", "38 of 1,200 (3%)"],
    ]);
    expect(backtestRows(METRICS)[4]?.label).toBe("All screenings of the last 30 days blocked");
  });
});

describe("labelsText", () => {
  it.each([
    [
      METRICS.labels,
      "61 fraud and 50 legitimate screenings (100 labels, 10 review decisions, 1 from Stripe)",
    ],
    [
      { fraud: 50, legitimate: 50, from: { labels: 1, reviews: 99, stripe: 0 }, capped: true },
      "50 fraud and 50 legitimate screenings (1 label, 99 review decisions, the newest only)",
    ],
  ])("%o", (labels, text) => {
    expect(labelsText(labels)).toBe(text);
  });
});

describe("thresholdsText, signalName, pointsText", () => {
  it.each([
    [{}, null],
    [{ signup: { review: 65, block: 80 } }, "signup review 65, block 80"],
    [
      { trial_start: { review: null, block: 90 }, checkout: { review: 70, block: null } },
      "trial start block 90; checkout review 70",
    ],
  ])("thresholds %o read %s", (thresholds, text) => {
    expect(thresholdsText(thresholds)).toBe(text);
  });

  it.each([
    [7.2, "+7.2"],
    [-14.4, "−14.4"],
    [0, "0"],
    [22, "+22.0"],
  ])("%f points per unit read %s", (points, text) => {
    expect(pointsText(points)).toBe(text);
  });

  it("names a signal in words", () => {
    expect(signalName("bot_user_agent")).toBe("bot user agent");
  });
});

describe("warnings", () => {
  it.each([
    [1, "1 warning to confirm before adopting"],
    [3, "3 warnings to confirm before adopting"],
  ])("%i: %s", (count, text) => {
    expect(warningsText(count)).toBe(text);
  });

  it.each([
    [[], null],
    [["one_source"], "confirmed: learnt mostly from one source"],
    [
      ["stops_blocking", "attack_signal_negative"],
      "confirmed: stops blocking most of what is blocked today; counts signs of abuse against it",
    ],
  ] as const)("what an adopter confirmed: %j", (codes, text) => {
    expect(confirmedText(codes)).toBe(text);
  });
});
