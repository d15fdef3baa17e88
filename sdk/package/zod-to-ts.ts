/**
 * Prints a zod schema as a TypeScript type, for the packed client's index.d.ts, so a merchant's
 * project gets the screening types from the shared schema without depending on zod. Covers what
 * the screening schemas use; anything else is refused rather than printed as `unknown`.
 */
import type { z } from "zod";

type Side = "input" | "output";
type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
};

const PLAIN: Record<string, string> = {
  string: "string",
  number: "number",
  boolean: "boolean",
  null: "null",
  undefined: "undefined",
  unknown: "unknown",
};

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The TypeScript type a value has going into the schema (input) or coming out (output). */
export function zodToTs(schema: z.ZodType, side: Side, indent = ""): string {
  const def = defOf(schema);
  const plain = PLAIN[def.type];
  if (plain) return plain;
  switch (def.type) {
    case "enum":
      return Object.values(def.entries ?? {})
        .map((value) => JSON.stringify(value))
        .join(" | ");
    case "literal":
      return (def.values ?? []).map((value) => JSON.stringify(value)).join(" | ");
    case "optional":
      return `${zodToTs(need(def.innerType), side, indent)} | undefined`;
    case "default":
      return side === "input"
        ? `${zodToTs(need(def.innerType), side, indent)} | undefined`
        : zodToTs(need(def.innerType), side, indent);
    case "nullable":
      return `${zodToTs(need(def.innerType), side, indent)} | null`;
    case "pipe":
      // A transform's output type exists only in TypeScript; our outputs never transform.
      if (side === "output" && defOf(need(def.out)).type === "transform") {
        throw new Error("zodToTs: cannot print the output type of a transform");
      }
      return zodToTs(need(side === "input" ? def.in : def.out), side, indent);
    case "union":
      return [...new Set((def.options ?? []).map((option) => zodToTs(option, side, indent)))].join(
        " | ",
      );
    case "array": {
      const element = zodToTs(need(def.element), side, indent);
      return /^[\w"]+$/.test(element) ? `${element}[]` : `Array<${element}>`;
    }
    case "object":
      return printObject(def.shape ?? {}, side, indent);
    default:
      throw new Error(`zodToTs: no printer for zod type "${def.type}"`);
  }
}

function printObject(shape: Record<string, z.ZodType>, side: Side, indent: string): string {
  const inner = `${indent}  `;
  const lines = Object.entries(shape).map(([key, value]) => {
    const type = defOf(value).type;
    const optional = type === "optional" || (type === "default" && side === "input");
    const printed = zodToTs(optional ? need(defOf(value).innerType) : value, side, inner);
    return `${inner}${key}${optional ? "?" : ""}: ${printed};`;
  });
  return `{\n${lines.join("\n")}\n${indent}}`;
}

function need(schema: z.ZodType | undefined): z.ZodType {
  if (!schema) throw new Error("zodToTs: a schema is missing its inner type");
  return schema;
}
