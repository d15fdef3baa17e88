/**
 * What one rule record holds (rule-records.ts): everything about a rule that is not its check.
 * The catalogue, the rules object, the settings schema and defaults, and retention's rule
 * windows are all read from the records, so none of them restates a rule.
 */
import { z } from "zod";

export type RuleGroup = "standard" | "advanced";

/** One setting: its schema, its default, what a person reads for it, and its choices. */
export type Field<S extends z.ZodType = z.ZodType> = {
  schema: S;
  default: z.output<S>;
  label: string;
  /** Settings chosen from a few values: each value and what a person reads for it, in order. */
  choices?: readonly (readonly [string, string])[];
};
export type Fields = Record<string, Field>;

/** A window of stored data the rule looks back over: fixed days, or one of its settings. */
export type RuleWindowDecl<F extends Fields = Fields> = {
  kind: "identities" | "charges_personal";
  /** Days, or the name of the setting that holds them. */
  days: number | Extract<keyof F, string>;
  /** What stops counting when retention is shorter, with {N} for the retention in days. */
  loses: string;
};

export type RuleRecord<F extends Fields = Fields> = {
  label: string;
  group: RuleGroup;
  /** The default action (block unless the rule only ever asks a person to look). */
  action: "block" | "review";
  /** The rule's parameters, in the order the settings object lists them. */
  fields: F;
  /** The stored data it reads over a day or more (the engine's count windows read these). */
  windows: Record<string, RuleWindowDecl<F>>;
};

/** A record, typed so its windows name only its own settings and are read by their names. */
export function rule<F extends Fields, W extends Record<string, RuleWindowDecl<F>>>(
  record: RuleRecord<F> & { windows: W },
): RuleRecord<F> & { windows: W } {
  return record;
}

export function field<S extends z.ZodType>(
  schema: S,
  value: z.output<S>,
  label: string,
  choices?: readonly (readonly [string, string])[],
): Field<S> {
  return { schema, default: value, label, ...(choices ? { choices } : {}) };
}

/** A whole number from 1 to max. */
export const count = (max: number) =>
  z
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(max, `must be at most ${max}`);
export const days = count(3650);
export const flag = z.boolean({ message: "must be true or false" });

/** Every rule's action and mode, before its own fields. */
export const BASE_FIELDS = {
  action: field(
    z.enum(["block", "review"], { message: "must be block or review" }),
    "block",
    "Action",
    [
      ["block", "Block"],
      ["review", "Review"],
    ],
  ),
  mode: field(z.enum(["live", "monitor"], { message: "must be live or monitor" }), "live", "Mode", [
    ["live", "Live"],
    ["monitor", "Monitor (report only)"],
  ]),
};
