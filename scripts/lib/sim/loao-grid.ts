/**
 * The grid `npm run loao` plays: candidate rule settings over one configuration. The default
 * grid turns one knob at a time away from today's settings (DEFAULT_RULE_SETTINGS): every limit
 * in them, a few values each, so a new limit joins the grid by being added there. Other
 * settings: a line in KNOBS, or a grid file with `knobs` or `candidates`. The simulator never
 * checks the fields itself: the server's PUT /api/rule-settings does, and a field it does not
 * know is reported as that candidate's refusal.
 */
import { z } from "zod";
import { DEFAULT_RULE_SETTINGS } from "../../../shared/schemas/rule-settings.ts";
import { CEILINGS, type Ceilings } from "./loao.ts";

/** One setting (a rule's field) and the values to try, each alone over the defaults. */
export type Knob = { rule: string; field: string; values: readonly unknown[] };

export type Candidate = { name: string; settings: Record<string, unknown> };

export type Grid = {
  /** What the settings go over: a template key, `all` (every template) or `rules` (every rule). */
  configuration: string;
  candidates: Candidate[];
  ceilings: Ceilings;
};

/** The run of today's settings, always played first: the name no candidate may take. */
export const DEFAULTS = "defaults";

/** A few values around a limit: ±1 and double for small ones, ½ ¾ 1½ 2× for larger. */
export function around(value: number): number[] {
  const tries =
    value < 10 ? [value - 1, value + 1, value * 2] : [0.5, 0.75, 1.5, 2].map((f) => f * value);
  return [...new Set(tries.map(Math.round))].filter((v) => v >= 1 && v !== value);
}

/** Fields that say how far back a count looks, not how many it allows: not tuned here. */
const NOT_A_LIMIT = /window_days$/;

/**
 * Every limit in `defaults` (a whole number, not a window), each tried at a few values around
 * its default. Built from the settings themselves, so a limit added to the schema's defaults
 * is in the grid without a line here.
 */
export function knobsOf(defaults: Record<string, Record<string, unknown>>): Knob[] {
  return Object.entries(defaults).flatMap(([rule, fields]) =>
    Object.entries(fields)
      .filter(
        (entry): entry is [string, number] =>
          Number.isInteger(entry[1]) && !NOT_A_LIMIT.test(entry[0]),
      )
      .map(([field, value]) => ({ rule, field, values: around(value) })),
  );
}

/** Limits off by default (null), with the values worth trying. */
const OFF_BY_DEFAULT: readonly Knob[] = [
  // Null blocks every disposable signup; the throttle template lets 3 an hour by.
  { rule: "rule_email", field: "disposable_signups_per_hour", values: [1, 3, 10] },
];

/** Today's limits, each tried at a few values; add a knob here for a non-numeric setting. */
export const KNOBS: readonly Knob[] = [
  ...knobsOf(DEFAULT_RULE_SETTINGS as unknown as Record<string, Record<string, unknown>>),
  ...OFF_BY_DEFAULT,
];

/** One candidate per knob value: that field alone changed. */
export function candidatesOf(knobs: readonly Knob[]): Candidate[] {
  return knobs.flatMap((knob) =>
    knob.values.map((value) => ({
      name: `${knob.rule}.${knob.field}=${JSON.stringify(value)}`,
      settings: { [knob.rule]: { [knob.field]: value } },
    })),
  );
}

export const DEFAULT_GRID: Grid = {
  configuration: "all",
  candidates: candidatesOf(KNOBS),
  ceilings: CEILINGS,
};

const settings = z.record(z.string(), z.record(z.string(), z.unknown()), {
  message: "must be an object of rules, each an object of fields",
});
const ZGridFile = z.strictObject({
  configuration: z.string().optional(),
  knobs: z
    .array(
      z.strictObject({
        rule: z.string(),
        field: z.string(),
        values: z.array(z.unknown()).min(1, "must list at least one value"),
      }),
    )
    .optional(),
  candidates: z
    .array(z.strictObject({ name: z.string().min(1, "must not be empty"), settings }))
    .optional(),
  ceilings: z
    .strictObject({
      blocked: z.number().min(0).max(1),
      reviewed: z.number().min(0).max(1),
      peopleBlocked: z.number().min(0).max(1),
    })
    .partial()
    .optional(),
});

/**
 * A grid file: `configuration`, `knobs` (expanded one value at a time) and/or `candidates`
 * (name and settings), `ceilings` over the default ones. Its shape is checked here; its
 * settings only by the server.
 */
export function gridOf(json: unknown): Grid {
  const parsed = ZGridFile.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(grid)"}: ${i.message}`);
    throw new Error(`grid file: ${issues.join("; ")}`);
  }
  const file = parsed.data;
  const candidates = [...candidatesOf(file.knobs ?? []), ...(file.candidates ?? [])];
  if (candidates.length === 0) throw new Error("grid file: no knobs or candidates");
  const names = candidates.map((c) => c.name);
  const repeated = names.filter((name, i) => names.indexOf(name) !== i || name === DEFAULTS);
  if (repeated.length > 0)
    throw new Error(
      `grid file: candidate names must be unique and not "${DEFAULTS}": ${[...new Set(repeated)].join(", ")}`,
    );
  return {
    configuration: file.configuration ?? DEFAULT_GRID.configuration,
    candidates,
    ceilings: { ...CEILINGS, ...file.ceilings },
  };
}
