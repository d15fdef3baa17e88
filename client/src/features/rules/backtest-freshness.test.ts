import { describe, expect, it } from "vitest";
import type { BacktestJob } from "../../../../shared/schemas/backtest.ts";
import { ago, clock, testedText } from "./backtest-freshness.ts";

const NOW = Date.parse("2026-11-26T14:05:30Z");
const job = (over: Partial<NonNullable<BacktestJob>>): NonNullable<BacktestJob> => ({
  id: "j",
  status: "done",
  days: 30,
  processed: 1,
  total: 1,
  startedAt: "2026-11-26T14:03:00Z",
  finishedAt: "2026-11-26T14:03:10Z",
  settingsSavedAt: "2026-11-26T14:02:00Z",
  settingsChanged: false,
  unsaved: [],
  error: null,
  result: null,
  ...over,
});

describe("Test on history's freshness", () => {
  it.each([
    ["2026-11-26T14:05:00Z", "just now"],
    ["2026-11-26T14:10:00Z", "just now"],
    ["2026-11-26T14:03:10Z", "2 min ago"],
    ["2026-11-26T13:05:30Z", "1 h ago"],
    ["2026-11-25T14:05:29Z", "on Nov 25, 14:05"],
  ])("says %s was %s", (iso, text) => {
    expect(ago(iso, NOW, "UTC")).toBe(text);
  });

  it.each([
    ["2026-11-26T14:02:00Z", "UTC", "14:02"],
    ["2026-11-26T14:02:00Z", "America/New_York", "09:02"],
    ["2026-11-24T23:59:00Z", "UTC", "Nov 24, 23:59"],
  ])("shows %s in %s as %s", (iso, zone, text) => {
    expect(clock(iso, NOW, zone)).toBe(text);
  });

  it.each([
    [job({}), "Tested 2 min ago with the settings saved at 14:02."],
    [
      job({ unsaved: ["Signup velocity (Signups per IP per hour 1)"] }),
      "Tested 2 min ago with the settings saved at 14:02, with unsaved changes to Signup velocity (Signups per IP per hour 1).",
    ],
    [
      job({ settingsSavedAt: null, finishedAt: null, startedAt: "2026-11-26T14:05:00Z" }),
      "Tested just now with the default settings (none saved yet).",
    ],
  ])("says what ran: %#", (value, text) => {
    expect(testedText(value, NOW, "UTC")).toBe(text);
  });
});
