/**
 * Detection quality must not regress: a small seeded simulation (npm run simulate's traffic and
 * driver, Warden on the embedded database with a simulated clock) checked against the figures
 * recorded in docs/detection-baseline.json, which docs/detection.md quotes. After a rule change
 * that moves them on purpose: npm run simulate -- --ci-baseline (rewrites that file's `ci`).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Baseline,
  CI_CONFIGURATIONS,
  compareWithBaseline,
} from "../../scripts/lib/sim/baseline.ts";
import type { ConfigurationFigures } from "../../scripts/lib/sim/report.ts";
import { simulate } from "../../scripts/lib/sim/run.ts";
import { startWarden, type Warden } from "../../scripts/lib/sim/warden.ts";

const baseline = JSON.parse(
  readFileSync(resolve(import.meta.dirname, "../../docs/detection-baseline.json"), "utf8"),
) as Baseline;

describe("detection quality on the seeded CI mix (embedded)", () => {
  let warden: Warden;
  let figures: ConfigurationFigures[];
  beforeAll(async () => {
    warden = await startWarden("embedded");
    const { seed, events, hours } = baseline.ci;
    figures = await simulate(warden, { seed, events, hours }, CI_CONFIGURATIONS);
  }, 120_000);
  afterAll(async () => {
    await warden?.close();
  });

  it("recall and false-positive rates are no worse than docs/detection-baseline.json", () => {
    expect(compareWithBaseline(figures, baseline.ci)).toEqual([]);
  });
});
