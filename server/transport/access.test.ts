import { describe, expect, it } from "vitest";
import { bounded } from "./access.ts";

describe("bounded: the input an audit event keeps", () => {
  it("keeps a small input as it is", () => {
    const input = { kind: "email", value: "vip@example.com", tags: ["a", "b"], n: 3 };
    expect(bounded(input)).toEqual(input);
  });

  it("cuts nesting past six levels", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 10; i++) deep = { a: deep };
    expect(JSON.stringify(bounded(deep))).toBe('{"a":{"a":{"a":{"a":{"a":{"a":"…"}}}}}}');
  });

  it("keeps at most 50 keys, 100 items and 1,000 characters a string", () => {
    const wide = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, i]));
    expect(Object.keys(bounded(wide) as object)).toHaveLength(50);
    expect(bounded(Array.from({ length: 500 }, (_, i) => i))).toHaveLength(100);
    const long = bounded("x".repeat(5000)) as string;
    expect(long).toHaveLength(1001);
    expect(long.endsWith("…")).toBe(true);
  });
});
