/** The weights file: its differences from a fresh fit, and its version going up only on a change. */
import { describe, expect, it } from "vitest";
import type { Weights } from "../../../shared/score/weights.ts";
import { differences, fileText, versioned } from "./weights-file.ts";

const file: Weights = {
  version: "default-3",
  fitted: { seeds: [1, 2], lambda: 1 },
  intercepts: { signup: -4.5, checkout: -3.25 },
  weights: { device_new: 1.234, webdriver: 2 },
  thresholds: { signup: { review: 70, block: 80 } },
};
const { version: _, ...content } = file;

describe("differences", () => {
  it("none between a file and itself, whatever the version", () => {
    expect(differences(file, { ...file, version: "default-9" })).toEqual([]);
  });

  it.each([
    {
      name: "one weight at the third decimal",
      fresh: { ...file, weights: { ...file.weights, device_new: 1.235 } },
      lines: ["weights.device_new: shipped 1.234, fit 1.235"],
    },
    {
      name: "a weight the fit no longer has",
      fresh: { ...file, weights: { device_new: 1.234 } },
      lines: ["weights.webdriver: shipped 2, fit (none)"],
    },
    {
      name: "an intercept",
      fresh: { ...file, intercepts: { ...file.intercepts, checkout: -3.3 } },
      lines: ["intercepts.checkout: shipped -3.25, fit -3.3"],
    },
    {
      name: "a threshold",
      fresh: { ...file, thresholds: { signup: { review: 71, block: 80 } } },
      lines: ['thresholds.signup: shipped {"review":70,"block":80}, fit {"review":71,"block":80}'],
    },
    {
      name: "how it was fitted",
      fresh: { ...file, fitted: { seeds: [1, 2, 3], lambda: 1 } },
      lines: ["fitted.seeds: shipped [1,2], fit [1,2,3]"],
    },
  ])("$name", ({ fresh, lines }) => {
    expect(differences(file, fresh)).toEqual(lines);
  });
});

describe("versioned", () => {
  it.each([
    {
      name: "the same content keeps the version",
      shipped: file,
      fresh: content,
      version: "default-3",
    },
    {
      name: "a change takes the next one",
      shipped: file,
      fresh: { ...content, weights: { ...content.weights, webdriver: 2.001 } },
      version: "default-4",
    },
    { name: "no shipped file: the first", shipped: null, fresh: content, version: "default-0" },
    {
      name: "a version not of the defaults: the first",
      shipped: { ...file, version: "acct-7" },
      fresh: content,
      version: "default-0",
    },
  ])("$name", ({ shipped, fresh, version }) => {
    expect(versioned(shipped, fresh).version).toBe(version);
  });
});

it("the file is two-space JSON ending with a newline, read back equal", () => {
  const text = fileText(file);
  expect(text.endsWith("}\n")).toBe(true);
  expect(JSON.parse(text)).toEqual(file);
});
