import { describe, expect, it } from "vitest";
import type { AllowListEntry } from "../../engine/types.ts";
import { allowListTimeline } from "./allow-list-timeline.ts";

const at = (iso: string) => Date.parse(iso);
const entry = (
  value: string,
  addedAt: string,
  expiresAt: string | null = null,
): AllowListEntry => ({
  kind: "user_id",
  value,
  addedBy: "jane@shop.example",
  addedAt,
  expiresAt,
});

const always = entry("u1", "2026-11-01T00:00:00.000Z");
const week = entry("u2", "2026-11-10T00:00:00.000Z", "2026-11-17T00:00:00.000Z");
const timeline = () => allowListTimeline([always, week]);

describe("allowListTimeline", () => {
  it.each([
    ["before any entry", "2026-10-31T23:59:59.999Z", []],
    ["from the first entry's creation", "2026-11-01T00:00:00.000Z", ["u1"]],
    ["while both are in force", "2026-11-12T00:00:00.000Z", ["u1", "u2"]],
    ["not at the expiry itself", "2026-11-17T00:00:00.000Z", ["u1"]],
    ["after the expiry", "2026-12-01T00:00:00.000Z", ["u1"]],
  ])("%s", (_, time, values) => {
    expect(
      timeline()
        .at(at(time))
        .map((e) => e.value),
    ).toEqual(values);
  });

  it("hands back the same array until an entry starts or ends, in either direction", () => {
    const t = timeline();
    const first = t.at(at("2026-11-02T00:00:00.000Z"));
    expect(t.at(at("2026-11-09T00:00:00.000Z"))).toBe(first);
    const both = t.at(at("2026-11-10T00:00:00.000Z"));
    expect(both).not.toBe(first);
    expect(t.at(at("2026-11-03T00:00:00.000Z")).map((e) => e.value)).toEqual(["u1"]);
    expect(t.at(at("2026-11-11T00:00:00.000Z")).map((e) => e.value)).toEqual(["u1", "u2"]);
  });

  it("is empty without entries", () => {
    expect(allowListTimeline([]).at(at("2026-11-12T00:00:00.000Z"))).toEqual([]);
  });
});
