import { describe, expect, it } from "vitest";
import { actingLevel, type ScoreNoteInput, scoreNote } from "./score-note.ts";

const shipped = { review: 92, block: 92 };
const base: ScoreNoteInput = {
  type: "signup",
  score: 100,
  acted: false,
  inForce: undefined,
  shipped,
};

describe("scoreNote", () => {
  const cases: [string, Partial<ScoreNoteInput>, string | null][] = [
    [
      "no threshold in force, score at the shipped level",
      {},
      "score 100, not acted on: no threshold for signups; set one or turn on a template",
    ],
    [
      "exactly at the shipped level",
      { score: 92 },
      "score 92, not acted on: no threshold for signups; set one or turn on a template",
    ],
    ["under the shipped level: nothing to say", { score: 91 }, null],
    ["the score acted", { acted: true }, null],
    [
      "a type with no shipped level",
      { type: "promo_redemption", shipped: { review: null, block: null } },
      null,
    ],
    ["no shipped threshold at all", { shipped: undefined }, null],
    [
      "the shipped review alone sets the level",
      { type: "trial_start", score: 96, shipped: { review: 96, block: null } },
      "score 96, not acted on: no threshold for trial starts; set one or turn on a template",
    ],
    ["under the merchant's own threshold", { score: 95, inForce: { review: 97, block: 99 } }, null],
    [
      "a threshold in force now that it reached",
      { inForce: { review: 60, block: 85 } },
      "score 100, not acted on when it was screened; signups have a threshold now (60)",
    ],
    [
      "a threshold with neither level counts as none",
      { inForce: { review: null, block: null } },
      "score 100, not acted on: no threshold for signups; set one or turn on a template",
    ],
  ];
  it.each(cases)("%s", (_name, change, expected) => {
    expect(scoreNote({ ...base, ...change })).toBe(expected);
  });
});

describe("actingLevel", () => {
  it.each([
    [{ review: 60, block: 85 }, 60],
    [{ review: null, block: 85 }, 85],
    [{ review: null, block: null }, null],
    [undefined, null],
  ])("%j acts from %s", (threshold, level) => {
    expect(actingLevel(threshold)).toBe(level);
  });
});
