import { describe, expect, it } from "vitest";
import { dayAxis } from "./day-axis.ts";

describe("dayAxis", () => {
  it.each([
    // A 30-day window ending mid-day covers 31 UTC days.
    ["2026-10-25T20:30:32.447Z", "2026-11-24T20:30:32.447Z", 31, "2026-10-25", 0],
    ["2026-10-25T20:30:32.447Z", "2026-11-24T20:30:32.447Z", 31, "2026-11-24", 30],
    ["2026-10-25T20:30:32.447Z", "2026-11-24T20:30:32.447Z", 31, "2026-11-01", 7],
    // Across the end of February, and a one-day window.
    ["2028-02-27T00:00:00.000Z", "2028-03-01T00:00:00.000Z", 4, "2028-02-29", 2],
    ["2026-11-24T00:00:00.000Z", "2026-11-24T23:59:59.999Z", 1, "2026-11-24", 0],
  ])("%s → %s: %i slots, %s in slot %i", (from, to, slots, day, slot) => {
    const axis = dayAxis(from, to);
    expect(axis.slots).toBe(slots);
    expect(axis.slot(day)).toBe(slot);
  });
});
