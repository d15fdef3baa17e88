import { describe, expect, it } from "vitest";
import { isStorable } from "./storable.ts";

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
