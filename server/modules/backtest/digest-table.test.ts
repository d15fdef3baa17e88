/** The digest table answers as a Map would: digests, other text, growth and forgetting. */
import { describe, expect, it } from "vitest";
import { legacyDigest } from "../screening/screening.entry.ts";
import { createDigestTable } from "./digest-table.ts";

describe("digest table", () => {
  it("agrees with a Map over 50,000 digests and other keys, through growth and retain", () => {
    const table = createDigestTable(4);
    const reference = new Map<string, number>();
    const keys = [
      ...Array.from({ length: 50_000 }, (_, i) => legacyDigest("ip", `10.0.${i >> 8}.${i & 255}`)),
      "v",
      "",
      "0123456789ABCDEF0123456789abcdef", // upper case: not a digest, kept apart
      "0123456789abcdef0123456789abcdef",
      "g123456789abcdef0123456789abcdef",
    ];
    keys.forEach((key, i) => {
      expect(table.swap(key, i)).toBe(reference.get(key));
      reference.set(key, i);
    });
    expect(table.getOrAdd(keys[7] as string, -5)).toBe(7);
    expect(table.getOrAdd(legacyDigest("ip", "new"), -5)).toBe(-5);
    reference.set(legacyDigest("ip", "new"), -5);
    expect(table.size).toBe(reference.size);
    for (const [key, value] of reference) expect(table.get(key)).toBe(value);
    expect(table.get(legacyDigest("ip", "never"))).toBeUndefined();
    expect(table.get("0123456789abcdef0123456789ABCDEF")).toBeUndefined();

    table.retain((value) => value % 3 === 0);
    for (const [key, value] of reference) {
      expect(table.get(key)).toBe(value % 3 === 0 ? value : undefined);
    }
    expect(table.size).toBe([...reference.values()].filter((v) => v % 3 === 0).length);
  });
});
