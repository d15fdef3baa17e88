import { describe, expect, it } from "vitest";
import { breakPoints } from "./break-points.ts";

describe("breakPoints", () => {
  it.each([
    ["jane.doe@mail.example.com", ["jane.", "doe", "@mail.", "example.", "com"]],
    ["a-very_long+tag@x.io", ["a-", "very_", "long+", "tag", "@x.", "io"]],
    ["ch_3PqRsTuVwXyZ0123456789", ["ch_", "3PqRsTuVwXyZ0123456789"]],
    ["2001:db8::1", ["2001:", "db8::", "1"]],
    ["203.0.113.7", ["203.", "0.", "113.", "7"]],
    ["plain", ["plain"]],
    ["", []],
    ["user-7 (u@x.y)", ["user-", "7 (u", "@x.", "y)"]],
  ])("%s", (value, pieces) => {
    expect(breakPoints(value)).toEqual(pieces);
    expect(breakPoints(value).join("")).toBe(value);
  });
});
