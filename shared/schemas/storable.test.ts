import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  isStorable,
  storableInput,
  storableString,
  unstorablePaths,
  uuidString,
} from "./storable.ts";

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

describe("unstorablePaths", () => {
  const deep = (levels: number): unknown => {
    let value: unknown = "bottom\u0000";
    for (let i = 0; i < levels; i++) value = [value];
    return value;
  };
  it.each([
    ["plain JSON", { a: "x", b: [1, "y", { c: null }] }, []],
    ["a string at the top", "x\u0000", [[]]],
    ["a NUL in a field", { app_name: "Shop\u0000" }, [["app_name"]]],
    [
      "several, in document order",
      { a: ["ok", "\ud800"], b: { c: "\u0000" }, d: "\u0000" },
      [["a", 1], ["b", "c"], ["d"]],
    ],
    ["a key, named once, not what it holds", { "k\u0000": { x: "\u0000" } }, [["k\u0000"]]],
    ["numbers, booleans and null", [1, true, null, 2.5], []],
  ])("%s", (_name, value, paths) => {
    expect(unstorablePaths(value)).toEqual(paths);
  });

  it("names at most ten places", () => {
    expect(unstorablePaths(Array.from({ length: 50 }, () => "\u0000"))).toHaveLength(10);
  });

  it("walks 100,000 levels of nesting without overflowing the stack", () => {
    expect(unstorablePaths(deep(100_000))[0]).toHaveLength(100_000);
  });
});

describe("storableInput", () => {
  const form = storableInput(z.strictObject({ name: z.string().max(5), n: z.number() }));
  it.each([
    ["a good form", { name: "ok", n: 1 }, null],
    ["NUL in a field", { name: "a\u0000", n: 1 }, [["name"]]],
    // Named before the schema reads anything: the other field's own error is not reached.
    ["NUL and a bad field", { name: "a\u0000", n: "one" }, [["name"]]],
    ["NUL in an unknown key's value", { name: "ok", n: 1, extra: "\u0000" }, [["extra"]]],
    ["no NUL, a bad field", { name: "toolong", n: 1 }, [["name"]]],
  ])("%s", (_name, input, paths) => {
    const result = form.safeParse(input);
    expect(result.success).toBe(paths === null);
    if (!result.success) expect(result.error.issues.map((i) => i.path)).toEqual(paths);
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
