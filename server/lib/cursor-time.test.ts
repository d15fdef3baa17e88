import { describe, expect, it } from "vitest";
import { cursorTime, notACursor } from "./cursor-time.ts";

describe("cursorTime", () => {
  it.each([
    ["a time a page ended on", "2026-11-20T10:00:00.250Z", Date.parse("2026-11-20T10:00:00.250Z")],
    ["the first millisecond of 1970", "1970-01-01T00:00:00.000Z", 0],
    [
      "the last millisecond of 9999",
      "9999-12-31T23:59:59.999Z",
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ],
    ["year +275760 (a JS Date PostgreSQL cannot store)", "+275760-09-13T00:00:00.000Z", undefined],
    ["year 10000", "+010000-01-01T00:00:00.000Z", undefined],
    ["before 1970", "1969-12-31T23:59:59.999Z", undefined],
    ["a time without milliseconds", "2026-11-20T10:00:00Z", undefined],
    ["a date alone", "2026-11-20", undefined],
    ["words Date.parse reads", "Fri, 20 Nov 2026 10:00:00 GMT", undefined],
    ["a month that does not exist", "2026-13-01T00:00:00.000Z", undefined],
    ["nothing", "", undefined],
    ["undefined", undefined, undefined],
  ])("%s → %s", (_name, text, at) => {
    expect(cursorTime(text)).toBe(at);
  });

  it("a refused cursor is a 400 naming the field", () => {
    expect(notACursor()).toMatchObject({
      code: "BAD_REQUEST",
      details: { issues: [{ path: "cursor", message: "is not a cursor this server gave out" }] },
    });
  });
});
