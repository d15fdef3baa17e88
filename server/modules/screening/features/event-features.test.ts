import { describe, expect, it } from "vitest";
import type { Unavailable } from "../../../../shared/schemas/screening.ts";
import { safely } from "./event-features.ts";

describe("safely", () => {
  it.each([
    ["a value", () => "FR", "FR", []],
    ["null computed", () => null, null, []],
    [
      "a throw, as the fallback with the reason",
      () => {
        throw new TypeError("not an IP address");
      },
      null,
      [{ feature: "geo", reason: "not an IP address" }],
    ],
    [
      "a thrown non-error",
      () => {
        throw "boom";
      },
      null,
      [{ feature: "geo", reason: "could not be computed" }],
    ],
  ])("%s", (_name, compute, expected, recorded) => {
    const unavailable: Unavailable[] = [];
    expect(safely("geo", compute as () => string | null, null, unavailable)).toBe(expected);
    expect(unavailable).toEqual(recorded);
  });

  it("keeps a long reason short", () => {
    const unavailable: Unavailable[] = [];
    safely(
      "timezone",
      () => {
        throw new Error("x".repeat(5000));
      },
      null,
      unavailable,
    );
    expect(unavailable[0]?.reason).toHaveLength(200);
  });
});
