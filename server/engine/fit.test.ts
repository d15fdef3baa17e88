import { describe, expect, it } from "vitest";
import { type Example, fitLogistic } from "./fit.ts";

/** A seeded generator, so the rows (and the fit) are the same every run. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Rows drawn from a known model: log-odds = intercept[group] + Σ w·x. */
function draw(
  n: number,
  truth: { intercepts: Record<string, number>; weights: Record<string, number> },
) {
  const random = lcg(7);
  const rows: Example[] = [];
  const groups = Object.keys(truth.intercepts);
  for (let i = 0; i < n; i++) {
    const group = groups[i % groups.length] as string;
    const x: Record<string, number> = {};
    let z = truth.intercepts[group] ?? 0;
    for (const [key, w] of Object.entries(truth.weights)) {
      const v = random() < 0.3 ? 1 : 0;
      if (v) x[key] = v;
      z += w * v;
    }
    rows.push({ group, x, y: random() < 1 / (1 + Math.exp(-z)) ? 1 : 0 });
  }
  return rows;
}

describe("fitLogistic", () => {
  const truth = { intercepts: { signup: -2, checkout: -1 }, weights: { a: 2, b: -1, c: 0 } };
  const rows = draw(20_000, truth);

  it("recovers the weights and intercepts of the model the rows came from", () => {
    const fitted = fitLogistic(rows, { keys: ["a", "b", "c"], lambda: 1e-3 });
    expect(fitted.weights.a).toBeCloseTo(2, 0);
    expect(fitted.weights.b).toBeCloseTo(-1, 0);
    expect(Math.abs(fitted.weights.c ?? 1)).toBeLessThan(0.15);
    expect(fitted.intercepts.signup).toBeCloseTo(-2, 0);
    expect(fitted.intercepts.checkout).toBeCloseTo(-1, 0);
    expect(fitted.iterations).toBeLessThan(20);
  });

  it("is deterministic: the same rows give the same weights", () => {
    const one = fitLogistic(rows, { keys: ["a", "b", "c"], lambda: 1 });
    const two = fitLogistic(rows, { keys: ["a", "b", "c"], lambda: 1 });
    expect(two).toEqual(one);
  });

  it("with few rows stays near the prior; with many, the data wins", () => {
    const prior = { weights: { a: 0.5, b: 0.5, c: 0.5 } };
    const few = fitLogistic(rows.slice(0, 40), { keys: ["a", "b", "c"], lambda: 50, prior });
    const many = fitLogistic(rows, { keys: ["a", "b", "c"], lambda: 50, prior });
    expect(Math.abs((few.weights.a ?? 0) - 0.5)).toBeLessThan(0.3);
    expect(Math.abs((few.weights.b ?? 0) - 0.5)).toBeLessThan(0.3);
    expect(many.weights.a).toBeCloseTo(2, 0);
    expect(many.weights.b).toBeCloseTo(-1, 0);
  });

  it("a signal only one class ever shows gets a large but finite weight", () => {
    const separable: Example[] = [
      ...Array.from({ length: 50 }, () => ({ group: "signup", x: { a: 1 }, y: 1 as const })),
      ...Array.from({ length: 50 }, () => ({ group: "signup", x: {}, y: 0 as const })),
    ];
    const fitted = fitLogistic(separable, { keys: ["a"], lambda: 0.1 });
    expect(fitted.weights.a).toBeGreaterThan(3);
    expect(Number.isFinite(fitted.weights.a)).toBe(true);
  });

  it("weights an example by its weight, as if repeated", () => {
    const once: Example[] = [
      { group: "g", x: { a: 1 }, y: 1, weight: 3 },
      { group: "g", x: { a: 1 }, y: 0 },
      { group: "g", x: {}, y: 0 },
      { group: "g", x: {}, y: 1 },
    ];
    const repeated: Example[] = [
      { group: "g", x: { a: 1 }, y: 1 },
      { group: "g", x: { a: 1 }, y: 1 },
      { group: "g", x: { a: 1 }, y: 1 },
      { group: "g", x: { a: 1 }, y: 0 },
      { group: "g", x: {}, y: 0 },
      { group: "g", x: {}, y: 1 },
    ];
    const a = fitLogistic(once, { keys: ["a"], lambda: 0.5 });
    const b = fitLogistic(repeated, { keys: ["a"], lambda: 0.5 });
    expect(a.weights.a).toBeCloseTo(b.weights.a ?? 0, 6);
  });
});

describe("fitLogistic far from the optimum", () => {
  it("converges on nearly separable rows where full Newton steps overshoot and diverge", () => {
    const random = lcg(33);
    // 44 signals, as many as the score has: pure Newton runs off to weights in the hundreds.
    const keys = Array.from({ length: 44 }, (_, i) => `k${i}`);
    const rows: Example[] = Array.from({ length: 3000 }, (_, i) => {
      const x: Record<string, number> = {};
      for (const key of keys) if (random() < 0.12) x[key] = random() < 0.5 ? 1 : 2;
      const attack = (x.k0 ?? 0) + (x.k1 ?? 0) + (x.k2 ?? 0) > 1.5;
      const group = ["signup", "trial_start", "checkout"][i % 3] ?? "signup";
      return { group, x, y: attack !== random() < 0.05 ? 1 : 0 };
    });
    const fitted = fitLogistic(rows, {
      keys,
      lambda: 1,
      prior: {
        intercepts: { signup: -3, trial_start: -3, checkout: -3 },
        weights: Object.fromEntries(keys.map((k) => [k, 0.5])),
      },
    });
    expect(fitted.iterations).toBeLessThan(30);
    for (const key of ["k0", "k1", "k2"]) {
      expect(fitted.weights[key]).toBeGreaterThan(1);
      expect(fitted.weights[key]).toBeLessThan(5);
    }
    for (const key of keys.slice(3)) expect(Math.abs(fitted.weights[key] ?? 9)).toBeLessThan(0.6);
  });
});
