import { describe, expect, it } from "vitest";
import { ordinal, span } from "./words.ts";

describe("ordinal", () => {
  it.each([
    [1, "1st"],
    [2, "2nd"],
    [3, "3rd"],
    [4, "4th"],
    [6, "6th"],
    [11, "11th"],
    [12, "12th"],
    [13, "13th"],
    [21, "21st"],
    [22, "22nd"],
    [101, "101st"],
    [111, "111th"],
  ])("%i → %s", (n, text) => expect(ordinal(n)).toBe(text));
});

describe("span", () => {
  it.each([
    [1, "1 min"],
    [10, "10 min"],
    [60, "1 h"],
    [120, "2 h"],
    [1440, "1 day"],
    [43200, "30 days"],
  ])("%i minutes → %s", (minutes, text) => expect(span(minutes)).toBe(text));
});
