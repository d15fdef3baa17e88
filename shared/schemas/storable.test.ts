import { describe, expect, it } from "vitest";
import { isStorable, storableString, uuidString } from "./storable.ts";

describe("isStorable", () => {
  it.each([
    ["plain text", "jane@example.com", true],
    ["an emoji (a surrogate pair)", "🛡️ shield", true],
    ["a pair at the very end", "x\udbff\udfff", true],
    ["right-to-left override", "\u202egnp.exe", true],
    ["NUL alone", "\u0000", false],
    ["NUL inside", "jane\u0000@example.com", false],
    ["a lone high surrogate", "\ud800", false],
    ["a lone high surrogate before text", "\ud800abc", false],
    ["a lone low surrogate", "abc\udfff", false],
    ["two high surrogates", "\ud800\ud800\udc00", false],
  ])("%s → %s", (_name, value, storable) => {
    expect(isStorable(value)).toBe(storable);
  });
});

describe("storableString", () => {
  it.each([
    ["a note", "customer verified by phone", true],
    ["a NUL in a note", "verified\u0000", false],
    ["a lone surrogate in a note", "verified \udc00", false],
  ])("%s → %s", (_name, value, ok) => {
    const result = storableString().safeParse(value);
    expect(result.success).toBe(ok);
    if (!result.success) {
      expect(result.error.issues[0]?.message).toBe(
        "must not contain NUL characters or unpaired surrogates",
      );
    }
  });
});

describe("uuidString", () => {
  it.each([
    ["a UUID", "0b5f8f8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b", true],
    ["a charge id", "ch_3Pabc123", false],
    ["a UUID with a NUL", "0b5f8f8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b\u0000", false],
    ["a UUID's length of dashes", "-".repeat(36), false],
    ["nothing", "", false],
  ])("%s → %s", (_name, value, ok) => {
    const result = uuidString().safeParse(value);
    expect(result.success).toBe(ok);
    if (!result.success) expect(result.error.issues[0]?.message).toBe("must be a UUID");
  });
});
