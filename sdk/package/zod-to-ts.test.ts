import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodToTs } from "./zod-to-ts.ts";

describe("zodToTs", () => {
  it.each([
    ["string with checks", z.string().trim().min(1).max(3), "input", "string"],
    ["number", z.number().int(), "output", "number"],
    ["enum", z.enum(["a", "b"]), "input", '"a" | "b"'],
    ["literal", z.literal(true), "output", "true"],
    [
      "nullable union",
      z.union([z.string(), z.number()]).nullable(),
      "output",
      "string | number | null",
    ],
    ["array of a union", z.array(z.enum(["x", "y"])), "output", 'Array<"x" | "y">'],
    ["array of plain", z.array(z.string()), "output", "string[]"],
    ["ip union", z.union([z.ipv4(), z.ipv6()]), "input", "string"],
    ["transform, input side", z.string().transform((s) => s.length), "input", "string"],
    [
      "object: optional and default keys",
      z.strictObject({ a: z.string(), b: z.number().optional(), c: z.number().default(1) }),
      "input",
      "{\n  a: string;\n  b?: number;\n  c?: number;\n}",
    ],
    [
      "object: a default is present on output",
      z.object({ c: z.number().default(1) }),
      "output",
      "{\n  c: number;\n}",
    ],
  ] as const)("prints %s", (_name, schema, side, expected) => {
    expect(zodToTs(schema, side)).toBe(expected);
  });

  it("refuses what it cannot print instead of guessing", () => {
    expect(() =>
      zodToTs(
        z.string().transform((s) => s.length),
        "output",
      ),
    ).toThrow(/transform/);
    expect(() => zodToTs(z.map(z.string(), z.string()), "input")).toThrow(/map/);
  });
});
