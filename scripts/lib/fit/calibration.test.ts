/** Calibration bands: events by score band, the share that was attack beside what the score says. */
import { describe, expect, it } from "vitest";
import { probabilityOf } from "../../../server/engine/score.ts";
import { calibrationOf } from "./calibration.ts";

describe("calibrationOf", () => {
  it("ten bands of ten, the last holding 100", () => {
    const bands = calibrationOf([]);
    expect(bands.map((b) => `${b.from}–${b.to}`)).toEqual([
      "0–9",
      "10–19",
      "20–29",
      "30–39",
      "40–49",
      "50–59",
      "60–69",
      "70–79",
      "80–89",
      "90–100",
    ]);
    expect(bands.every((b) => b.events === 0 && b.share === null && b.expected === null)).toBe(
      true,
    );
  });

  it.each([
    { score: 0, band: 0 },
    { score: 9, band: 0 },
    { score: 10, band: 1 },
    { score: 89, band: 8 },
    { score: 90, band: 9 },
    { score: 100, band: 9 },
  ])("score $score falls in band $band", ({ score, band }) => {
    const bands = calibrationOf([{ score, attack: true }]);
    expect(bands.findIndex((b) => b.events === 1)).toBe(band);
  });

  it("counts events and attacks per band, their share and the mean probability the scores stand for", () => {
    const bands = calibrationOf([
      { score: 12, attack: false },
      { score: 15, attack: false },
      { score: 18, attack: true },
      { score: 19, attack: false },
      { score: 95, attack: true },
    ]);
    expect(bands[1]).toMatchObject({ events: 4, attacks: 1, share: 0.25 });
    const expected =
      (probabilityOf(12) + probabilityOf(15) + probabilityOf(18) + probabilityOf(19)) / 4;
    expect(bands[1]?.expected).toBeCloseTo(expected, 12);
    expect(bands[9]).toMatchObject({ events: 1, attacks: 1, share: 1 });
  });

  it("a score of 50 stands for even odds", () => {
    expect(calibrationOf([{ score: 50, attack: false }])[5]?.expected).toBe(0.5);
  });
});
